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
	/* Both: demangled, then stripped. */
	check_display("_ZN4demo12fused_adam_kEPfS0_S0_PKfffi", NAME_DEMANGLE | NAME_STRIP,
		      "demo::fused_adam_k");
	return check_done();
}
