/* Name display: demangling through the library demangler, stripping of
 * C++ names' return types, template and argument lists, Tensile's short
 * names, and where names part from each other. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "display/names.h"
#include "display/tensile.h"

static void check_display(const char *raw, unsigned style, const char *want)
{
	char *got = name_display(raw, style);
	CHECK_STR(got, want);
	free(got);
}

/* Two of mytrace.rpd's hipBLASLt kernels: one operation and macro tile,
 * parted by five fields from character 156 on. */
#define MT256 "Cijk_Alik_Bljk_F8HS_BH_BiasSH_AS_SAB_SAV_UserArgs_MT256x224x128_MI16x16x1_SN_LDSB1_AFC1_"
#define MT256_A                                                                                              \
	MT256 "AFEM1_AFEM1_ASEM1_CLR1_CADS0_EPS0_GRVWA8_GRVWB8_GSUAMB_IU1_K1_LBSPPA1024_LBSPPB128_LBSPPM0_"  \
	      "LPA8_LPB8_LPM0_LRVW8_LWPMn1_MIAV0_MIWT8_7_MO40_NTn1_NTA0_NTB0_NTC0_NTD0_NEPBS16_NLCA1_"       \
	      "NLCB1_ONLL0_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW8_TLDS1_ULSGRO0_USL1_UIOFGRO0_"        \
	      "USFGROn1_VWA8_VWB1_WSGRA0_WSGRB0_WG32_8_1_WGMXCC1_WGMXCCG0"
#define MT256_B                                                                                              \
	MT256 "AFEM1_AFEM1_ASEM1_CLR1_CADS0_EPS0_GRVWA8_GRVWB8_GSUAMB_IU1_K1_LBSPPA512_LBSPPB128_LBSPPM0_"   \
	      "LPA8_LPB8_LPM0_LRVW8_LWPMn1_MIAV0_MIWT4_14_MO40_NTn1_NTA0_NTB0_NTC0_NTD0_NEPBS16_NLCA1_"      \
	      "NLCB1_ONLL0_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW4_TLDS1_ULSGRO0_USL1_UIOFGRO0_"        \
	      "USFGROn1_VWA4_VWB1_WSGRA0_WSGRB0_WG64_4_1_WGMXCC1_WGMXCCG0"
#define MT32                                                                                                 \
	"Cijk_Alik_Bljk_F8HS_BH_BiasSH_AS_SAB_SAV_UserArgs_MT32x16x1024_MI16x16x1_SN_LDSB1_AFC1_LBSPPA1024_" \
	"WG32_4_1"

static void check_short(const char *name, const char *const *peers, size_t n, const char *want)
{
	char *got = tensile_short(name, peers, n);
	if (!want) {
		CHECK(got == NULL);
	} else {
		CHECK(got != NULL);
		if (got)
			CHECK_STR(got, want);
	}
	free(got);
}

static void tensile(void)
{
	const char *const peers[] = { MT256_A, MT256_B, MT32 };
	const char *const prefix = "Cijk_Alik_Bljk_F8HS_BH_BiasSH_AS_SAB_SAV_UserArgs_";
	char want[256];
	CHECK(tensile_is_name(MT256_A));
	CHECK(!tensile_is_name("Cijk_no_tile_here"));
	CHECK(!tensile_is_name("void Cijk_MT1x1x1(int)"));
	CHECK(!tensile_is_name("_Z13softmax_fwd_kPfPKfii"));
	/* The operation, the tile, and the fields the other lacks; the
	 * all-digit words stay with their field (MIWT8_7, WG32_8_1). */
	snprintf(want, sizeof(want), "%sMT256x224x128_LBSPPA1024_MIWT8_7_SVW8_VWA8_WG32_8_1", prefix);
	check_short(MT256_A, peers, 3, want);
	snprintf(want, sizeof(want), "%sMT256x224x128_LBSPPA512_MIWT4_14_SVW4_VWA4_WG64_4_1", prefix);
	check_short(MT256_B, peers, 3, want);
	/* Alone with its tile: the operation and the tile. */
	snprintf(want, sizeof(want), "%sMT32x16x1024", prefix);
	check_short(MT32, peers, 3, want);
	/* Without peers, or only itself. */
	snprintf(want, sizeof(want), "%sMT256x224x128", prefix);
	check_short(MT256_A, NULL, 0, want);
	check_short(MT256_A, peers, 1, want);
	/* A tile that only starts like the other's is another tile. */
	const char *const tiles[] = { "Cijk_A_MT64x64x16_X1", "Cijk_A_MT64x64x16x2_X1" };
	check_short(tiles[0], tiles, 2, "Cijk_A_MT64x64x16");
	/* A field one of them lacks, not a value that differs. */
	const char *const extra[] = { "Cijk_A_MT8x8x8_X1_Y2", "Cijk_A_MT8x8x8_X1" };
	check_short(extra[0], extra, 2, "Cijk_A_MT8x8x8_Y2");
	check_short(extra[1], extra, 2, "Cijk_A_MT8x8x8");
	/* Not Tensile names. */
	check_short("CopyHostToDevice", peers, 3, NULL);
	check_short("Cijk_without_tile", peers, 3, NULL);
	/* The name style: shortened among the peers given, others as they are. */
	char *got = name_display_among(MT32, NAME_DEMANGLE | NAME_TENSILE, peers, 3);
	snprintf(want, sizeof(want), "%sMT32x16x1024", prefix);
	CHECK_STR(got, want);
	free(got);
	check_display(MT256_A, NAME_DEMANGLE | NAME_STRIP, MT256_A);
	check_display("_Z13softmax_fwd_kPfPKfii", NAME_DEMANGLE | NAME_TENSILE,
		      "softmax_fwd_k(float*, float const*, int, int)");
}

static void parting(void)
{
	const char *const names[] = { MT256_A, MT256_B, MT32,        "CopyHostToDevice",
				      "Copy",  "Copy",  "x\xc3\xa9", "x\xc3\xa8" };
	size_t at[8];
	name_parting(names, 8, at);
	/* Where LBSPPA1024 and LBSPPA512 part: the first digit after LBSPPA. */
	size_t lbsppa = (size_t)(strstr(MT256_A, "LBSPPA1024") - MT256_A) + 6;
	CHECK_INT(at[0], lbsppa);
	CHECK_INT(at[1], lbsppa);
	CHECK_INT(at[2], strlen("Cijk_Alik_Bljk_F8HS_BH_BiasSH_AS_SAB_SAV_UserArgs_MT"));
	CHECK_INT(at[3], 4); /* goes on from "Copy" */
	CHECK_INT(at[4], 4); /* the same as another */
	CHECK_INT(at[5], 4);
	CHECK_INT(at[6], 1); /* before the character, not inside it */
	CHECK_INT(at[7], 1);
	name_parting(names, 1, at);
	CHECK_INT(at[0], 0); /* alone */
	name_parting(names, 0, at);
}

int main(void)
{
	tensile();
	parting();
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
