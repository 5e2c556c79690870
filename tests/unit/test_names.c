/* Name display: demangling through the library demangler and stripping of
 * return types, template and argument lists. */
#include "config.h"

#include <stdlib.h>

#include "check.h"
#include "present/names.h"

static void check_display(const char *raw, unsigned style, const char *want)
{
	char *got = name_display(raw, style);
	CHECK_STR(got, want);
	free(got);
}

int main(void)
{
	/* Demangling. */
	check_display("_Z13softmax_fwd_kPfPKfii", NAME_DEMANGLE,
		      "softmax_fwd_k(float*, float const*, int, int)");
	check_display("_ZN4demo12fused_adam_kEPfS0_S0_PKfffi", NAME_DEMANGLE,
		      "demo::fused_adam_k(float*, float*, float*, float const*, float, float, int)");
	check_display("_Z13softmax_fwd_kPfPKfii", 0, "_Z13softmax_fwd_kPfPKfii");
	/* Not mangled, or not valid: shown as recorded. */
	check_display("CopyHostToDevice", NAME_DEMANGLE, "CopyHostToDevice");
	check_display("_Znot a name", NAME_DEMANGLE, "_Znot a name");
	check_display("i", NAME_DEMANGLE, "i");

	/* Stripping. */
	check_display("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
		      "at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::"
		      "operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> >"
		      "(at::native::ReduceOp<float, at::native::func_wrapper_t<float, int>, unsigned int, "
		      "float, 4>)",
		      NAME_STRIP, "at::native::reduce_kernel");
	check_display("void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::Half, float>"
		      "(int, float, c10::Half const*)",
		      NAME_STRIP, "at::native::(anonymous namespace)::vectorized_layer_norm_kernel");
	check_display("ncclDevKernel_Generic(ncclDevComm*, unsigned long, ncclWork*)", NAME_STRIP,
		      "ncclDevKernel_Generic");
	check_display("Cijk_Alik_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1_SN", NAME_STRIP,
		      "Cijk_Alik_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1_SN");
	check_display("CopyDeviceToHost", NAME_STRIP, "CopyDeviceToHost");
	check_display("std::enable_if<(((8)>(0)))&&_typeConvert<c10::Half>::exists, void>::type "
		      "vllm::fused_add_rms_norm_kernel<c10::Half, 8>(c10::Half*, c10::Half*, c10::Half "
		      "const*, float, int, int)",
		      NAME_STRIP, "vllm::fused_add_rms_norm_kernel");
	check_display("bool operator<<T>(T const&, T const&)", NAME_STRIP, "operator<");
	/* Only C++ names are stripped: roctx and region texts, copies and
	 * anything else that does not read as a signature stay whole. */
	const unsigned all = NAME_DEMANGLE | NAME_STRIP;
	check_display("Sampler Foward", all, "Sampler Foward");
	check_display("Sampler Foward", NAME_STRIP, "Sampler Foward");
	check_display("step 3", all, "step 3");
	check_display("count=4096 | remaining=568", all, "count=4096 | remaining=568");
	check_display("graphExec = 0x24922d90 | stream = 0x0", all, "graphExec = 0x24922d90 | stream = 0x0");
	check_display("hipMemcpy (sync)", all, "hipMemcpy (sync)");
	check_display("a < b > c", all, "a < b > c");
	check_display("_Znot a name", all, "_Znot a name");
	check_display("aten::to", all, "aten::to");
	check_display("kernel<float>", all, "kernel");
	CHECK(name_is_cxx("_Z13softmax_fwd_kPfPKfii"));
	CHECK(name_is_cxx("_Z3foov.cold"));
	CHECK(name_is_cxx("at::native::reduce_kernel"));
	CHECK(name_is_cxx("void f<int>"));
	CHECK(name_is_cxx("ncclDevKernel_Generic(ncclDevComm*, unsigned long, ncclWork*)"));
	CHECK(!name_is_cxx("Sampler Foward"));
	CHECK(!name_is_cxx("_Znot a name"));
	CHECK(!name_is_cxx("hipMemcpy (sync)"));
	CHECK(!name_is_cxx("Cijk_Alik_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1_SN"));
	CHECK(!name_is_cxx("CopyHostToDevice"));
	CHECK(!name_is_cxx(""));
	CHECK(!name_is_cxx("("));

	/* Both: demangled, then stripped. */
	check_display("_ZN4demo12fused_adam_kEPfS0_S0_PKfffi", NAME_DEMANGLE | NAME_STRIP,
		      "demo::fused_adam_k");
	return check_done();
}
