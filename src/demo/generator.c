#include "config.h"
#include "demo/generator.h"

#include <stdio.h>
#include <string.h>

/* Queues of each GPU, as a PyTorch job with RCCL uses them. */
enum { Q_COMPUTE = 0, Q_COMM = 1, Q_COPY = 2, NQUEUES = 3 };
#define MAX_GPUS 64
#define MAX_DEPTH 8
#define LAYERS 6

struct kernel_kind {
	const char *name;
	const char *launcher;
	int64_t min_ns, spread_ns; /* duration: min + random part of spread */
	int64_t grid, workgroup;
};

/* Names as ROCm's libraries and PyTorch produce them: long templates,
 * Tensile GEMM names, RCCL collectives, and a few still mangled. */
static const struct kernel_kind gemm_kernels[] = {
	{ "Cijk_Alik_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1_SN_1LDSB0_APM1_ABV0_ACED0_AF0EM1_AF1EM1_"
	  "AMAS3_ASE_ASGT_ASLT_ASAE01_ASCE01_ASEM1_AAC0_BL1_BS1_DTL0_DTVA0_DVO0_ETSP_EPS1_FL0_GRPM1_"
	  "GRVW8_GSU1_GSUASB_GLS0_ISA90a_IU1_K1_KLA_LBSPP128_LPA0_LPB8_LDL1_LRVW16_LWPMn1_LDW0_FMA_"
	  "MIAV0_MDA2_MO40_NTA0_NTB0_NTC0_NTD0_NEPBS0_NLCA1_NLCB1_ONLL1_OPLV0_PK0_PAP0_PGR1_PLR1_SIA3_"
	  "SS1_SU32_SUM0_SUS256_SCIUI1_SPO0_SRVW0_SSO0_SVW4_SNLL0_TT4_64_TLDS1_USFGROn1_VAW2_VSn1_VW4_"
	  "WSGRA1_WSGRB1_WS64_WG32_4_1_WGM8",
	  "hipExtModuleLaunchKernel", 180000, 900000, 2048, 256 },
	/* The same operation and macro tile as the first: the names part
	 * after some 230 characters, as hipBLASLt's solutions do. */
	{ "Cijk_Alik_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1_SN_1LDSB0_APM1_ABV0_ACED0_AF0EM1_AF1EM1_"
	  "AMAS3_ASE_ASGT_ASLT_ASAE01_ASCE01_ASEM1_AAC0_BL1_BS1_DTL0_DTVA0_DVO0_ETSP_EPS1_FL0_GRPM1_"
	  "GRVW8_GSU1_GSUASB_GLS0_ISA90a_IU1_K1_KLA_LBSPP256_LPA0_LPB8_LDL1_LRVW16_LWPMn1_LDW0_FMA_"
	  "MIAV0_MDA2_MO40_NTA0_NTB0_NTC0_NTD0_NEPBS0_NLCA1_NLCB1_ONLL1_OPLV0_PK0_PAP0_PGR1_PLR1_SIA3_"
	  "SS1_SU32_SUM0_SUS256_SCIUI1_SPO0_SRVW0_SSO0_SVW8_SNLL0_TT4_64_TLDS1_USFGROn1_VAW2_VSn1_VW4_"
	  "WSGRA1_WSGRB1_WS64_WG64_2_1_WGM8",
	  "hipExtModuleLaunchKernel", 250000, 1200000, 4096, 256 },
	{ "Cijk_Alik_Bljk_SB_MT64x64x16_MI16x16x4x1_SN_1LDSB0_APM1_ABV0_ACED0_AF0EM1_AF1EM1_AMAS3_"
	  "ASE_ASGT_ASLT_ASAE01_ASCE01_ASEM1_AAC0_BL1_BS1_DTL0_DTVA0_DVO0_ETSP_EPS1_FL0_GRVW4_WGM8",
	  "hipExtModuleLaunchKernel", 40000, 160000, 512, 256 },
};

static const struct kernel_kind small_kernels[] = {
	{ "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::Half>, "
	  "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<c10::Half>, "
	  "at::detail::Array<char*, 3>)",
	  "hipLaunchKernel", 4000, 30000, 1024, 128 },
	{ "void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl("
	  "at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::"
	  "{lambda()#4}::operator()() const::{lambda(c10::Half)#1}, at::detail::Array<char*, 2> >"
	  "(int, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::"
	  "{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::Half)#1}, "
	  "at::detail::Array<char*, 2>)",
	  "hipLaunchKernel", 8000, 40000, 1024, 128 },
	{ "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::Half, float>"
	  "(int, float, c10::Half const*, c10::Half const*, c10::Half const*, float*, float*, c10::Half*)",
	  "hipLaunchKernel", 10000, 30000, 4096, 256 },
	{ "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t"
	  "<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::"
	  "{lambda(float, float)#1}>, unsigned int, float, 4> >(at::native::ReduceOp<float, "
	  "at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()"
	  "(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4>)",
	  "hipLaunchKernel", 6000, 20000, 256, 512 },
	{ "void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, c10::Half> >"
	  "(Flash_fwd_params)",
	  "hipLaunchKernel", 90000, 300000, 1536, 256 },
	{ "_Z13softmax_fwd_kPfPKfii", "hipLaunchKernel", 5000, 25000, 2048, 256 },
};

static const struct kernel_kind optimizer_kernel = {
	"_ZN4demo12fused_adam_kEPfS0_S0_PKfffi", "hipLaunchKernel", 30000, 60000, 8192, 256
};

static const struct kernel_kind allreduce_kernel = {
	"ncclDevKernel_Generic(ncclDevComm*, unsigned long, ncclWork*)",
	"hipExtLaunchKernel",
	150000,
	600000,
	64,
	256
};

/* Collectives as RCCL and vLLM name them, for --collectives. */
static const struct kernel_kind collective_kernels[] = {
	{ "ncclDevKernel_AllReduce_Sum_f16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
	  "hipExtLaunchKernel", 60000, 300000, 64, 256 },
	{ "ncclDevKernel_AllGather_RING_LL(ncclDevComm*, unsigned long, ncclWork*)", "hipExtLaunchKernel",
	  40000, 200000, 64, 256 },
	{ "ncclDevKernel_ReduceScatter_Sum_f16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
	  "hipExtLaunchKernel", 40000, 200000, 64, 256 },
	{ "void vllm::cross_device_reduce_2stage<c10::Half, 8>(vllm::RankData*, vllm::RankSignals, "
	  "vllm::Signal*, "
	  "c10::Half*, int, int)",
	  "hipLaunchKernel", 20000, 80000, 112, 512 },
};

static const char *const layer_names[LAYERS] = {
	"embedding", "attention", "attention.proj", "mlp.up", "mlp.down", "lm_head",
};

struct range {
	int64_t start;
	char text[64];
};

struct gpu_state {
	int64_t gpu, pid, tid, loader_tid;
	int64_t cpu;                 /* main thread clock */
	int64_t queue_free[NQUEUES]; /* when each queue is next idle */
	struct range stack[MAX_DEPTH];
	int depth;
	int64_t graph_call, graph_end; /* the graph launch being replayed, 0: none */
};

struct gen {
	const struct gen_params *p;
	const struct gen_sink *sink;
	uint64_t rng;
	int64_t next_op, next_api;
	uint64_t ops_left;
	int failed;
};

/* splitmix64: tiny, fast, and the same on every platform. */
static uint64_t rnd(struct gen *g)
{
	uint64_t z = (g->rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int64_t rnd_range(struct gen *g, int64_t min, int64_t spread)
{
	return min + (spread > 0 ? (int64_t)(rnd(g) % (uint64_t)spread) : 0);
}

static int64_t emit_api(struct gen *g, struct gpu_state *s, int64_t tid, int64_t start, int64_t end,
			const char *name, const char *args, const struct rpd_kernel_launch *k,
			const struct rpd_copy_launch *c)
{
	struct gen_api a = { .id = ++g->next_api,
			     .start = start,
			     .end = end,
			     .pid = s->pid,
			     .tid = tid,
			     .name = name,
			     .args = args,
			     .kernel = k,
			     .copy = c };
	if (!g->failed && g->sink->api(g->sink->ctx, &a))
		g->failed = 1;
	return a.id;
}

static int64_t emit_op(struct gen *g, struct gpu_state *s, int queue, int64_t start, int64_t dur,
		       const char *desc, const char *type, int64_t launch, const struct rpd_kernel_launch *k,
		       const struct rpd_copy_launch *c)
{
	struct gen_op o = { .id = ++g->next_op,
			    .start = start,
			    .end = start + dur,
			    .gpu = s->gpu,
			    .queue = queue,
			    .desc = desc,
			    .type = type,
			    .pid = s->pid,
			    .tid = s->tid,
			    .launch = launch,
			    .kernel = k,
			    .copy = c };
	g->ops_left--;
	s->queue_free[queue] = o.end;
	if (!g->failed && g->sink->op(g->sink->ctx, &o))
		g->failed = 1;
	return o.id;
}

static void emit_link(struct gen *g, int64_t api, int64_t op)
{
	if (!g->failed && g->sink->link(g->sink->ctx, api, op))
		g->failed = 1;
}

static void push_range(struct gpu_state *s, const char *text)
{
	if (s->depth == MAX_DEPTH)
		return;
	struct range *r = &s->stack[s->depth++];
	r->start = s->cpu;
	snprintf(r->text, sizeof(r->text), "%s", text);
	s->cpu += 300;
}

/* roctx ranges are recorded when they close, as the profiler does. */
static void pop_range(struct gen *g, struct gpu_state *s)
{
	if (s->depth == 0)
		return;
	struct range *r = &s->stack[--s->depth];
	s->cpu += 200;
	emit_api(g, s, s->tid, r->start, s->cpu, "UserMarker", r->text, NULL, NULL);
}

/* Calls too short for the clock: a roctx mark on the main thread, and the
 * input pipeline's thread asking for errors. They take no time and no
 * random numbers, so the rest of the trace is as without them. */
static void instant_calls(struct gen *g, struct gpu_state *s, uint64_t n)
{
	char text[64];
	snprintf(text, sizeof(text), "batch %llu ready", (unsigned long long)n);
	emit_api(g, s, s->tid, s->cpu, s->cpu, "UserMarker", text, NULL, NULL);
	emit_api(g, s, s->loader_tid, s->cpu, s->cpu, "hipGetLastError", "", NULL, NULL);
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* A node of the replay under way: it starts when its queue is free (the
 * graph's nodes follow each other closely, now and then after a longer
 * wait inside the graph), whatever the host does meanwhile. */
static void graph_node(struct gen *g, struct gpu_state *s, const struct kernel_kind *k, int queue)
{
	struct rpd_kernel_launch kl = {
		.grid = { k->grid * k->workgroup, 1, 1 },
		.workgroup = { k->workgroup, 1, 1 },
		.kernel = k->name,
	};
	int64_t wait = rnd(g) % 8 == 0 ? rnd_range(g, 8000, 20000) : rnd_range(g, 200, 1000);
	int64_t start = max64(s->graph_end + 3000, s->queue_free[queue] + wait);
	int64_t op = emit_op(g, s, queue, start, rnd_range(g, k->min_ns, k->spread_ns), k->name,
			     "KernelExecution", s->graph_call, &kl, NULL);
	emit_link(g, s->graph_call, op);
}

static void launch_kernel(struct gen *g, struct gpu_state *s, const struct kernel_kind *k, int queue)
{
	if (!g->ops_left)
		return;
	if (s->graph_call) {
		graph_node(g, s, k, queue);
		return;
	}
	int64_t api_start = s->cpu, api_end = api_start + rnd_range(g, 3000, 9000);
	struct rpd_kernel_launch kl = {
		.grid = { k->grid * k->workgroup, 1, 1 },
		.workgroup = { k->workgroup, 1, 1 },
		.kernel = k->name,
	};
	int64_t api = emit_api(g, s, s->tid, api_start, api_end, k->launcher, "", &kl, NULL);
	/* A kernel starts once launched and once its queue is free. */
	int64_t start =
		max64(api_end + rnd_range(g, 2000, 6000), s->queue_free[queue] + rnd_range(g, 500, 1500));
	int64_t op = emit_op(g, s, queue, start, rnd_range(g, k->min_ns, k->spread_ns), k->name,
			     "KernelExecution", api, &kl, NULL);
	emit_link(g, api, op);
	s->cpu = api_end + rnd_range(g, 1000, 4000);
}

static void copy(struct gen *g, struct gpu_state *s, int kind, int64_t bytes, int sync)
{
	if (!g->ops_left)
		return;
	static const char *const types[] = { "", "CopyHostToDevice", "CopyDeviceToHost",
					     "CopyDeviceToDevice" };
	char args[64];
	snprintf(args, sizeof(args), "size=%lld kind=%d", (long long)bytes, kind);
	int64_t api_start = s->cpu, api_end = api_start + rnd_range(g, 4000, 8000);
	int64_t start = max64(api_end + 3000, s->queue_free[Q_COPY] + 1000);
	/* About 20 GB/s over PCIe, with a fixed setup cost. */
	int64_t dur = 5000 + bytes / 20;
	if (sync)
		api_end = start + dur + 2000;
	struct rpd_copy_launch cl = { .size = bytes,
				      .kind = kind,
				      .sync = sync,
				      .src_device = kind == 1 ? -1 : s->gpu,
				      .dst_device = kind == 2 ? -1 : s->gpu };
	int64_t api = emit_api(g, s, s->tid, api_start, api_end, sync ? "hipMemcpy" : "hipMemcpyAsync", args,
			       NULL, &cl);
	int64_t op = emit_op(g, s, Q_COPY, start, dur, "", types[kind], api, NULL, &cl);
	emit_link(g, api, op);
	s->cpu = api_end + rnd_range(g, 1000, 3000);
}

static void barrier(struct gen *g, struct gpu_state *s)
{
	if (!g->ops_left || g->p->no_barriers)
		return;
	int64_t start = s->queue_free[Q_COMPUTE] + 500;
	emit_op(g, s, Q_COMPUTE, start, rnd_range(g, 1000, 2000), "", "BarrierAnd", 0, NULL, NULL);
}

static void synchronize(struct gen *g, struct gpu_state *s)
{
	int64_t done = s->cpu;
	for (int q = 0; q < NQUEUES; q++)
		done = max64(done, s->queue_free[q]);
	emit_api(g, s, s->tid, s->cpu, done + 3000, "hipDeviceSynchronize", "", NULL, NULL);
	s->cpu = done + 5000;
}

static void layer(struct gen *g, struct gpu_state *s, int i, int backward)
{
	char text[64];
	snprintf(text, sizeof(text), "%s%s", layer_names[i], backward ? ".grad" : "");
	push_range(s, text);
	int n = 2 + (int)(rnd(g) % 3);
	for (int k = 0; k < n; k++) {
		const struct kernel_kind *kk =
			rnd(g) % 3 == 0
				? &gemm_kernels[rnd(g) % (sizeof(gemm_kernels) / sizeof(gemm_kernels[0]))]
				: &small_kernels[rnd(g) % (sizeof(small_kernels) / sizeof(small_kernels[0]))];
		launch_kernel(g, s, kk, Q_COMPUTE);
	}
	/* Tensor-parallel collectives, overlapping the next layer's compute. */
	if (g->p->collectives)
		launch_kernel(g, s,
			      &collective_kernels[(size_t)i % (sizeof(collective_kernels) /
							       sizeof(collective_kernels[0]))],
			      Q_COMM);
	/* Gradients are reduced across GPUs while the next layer computes. */
	if (backward)
		launch_kernel(g, s, &allreduce_kernel, Q_COMM);
	pop_range(g, s);
}

/* One call replays the forward pass: two graphs (as a server's decode
 * and prefill), taken in turn. */
static void graph_launch(struct gen *g, struct gpu_state *s, uint64_t n)
{
	char args[64];
	snprintf(args, sizeof(args), "graphExec = 0x%llx | stream = 0x0",
		 (unsigned long long)(0x5eed000 + 16 * (n % 2) + (uint64_t)s->gpu * 256));
	int64_t start = s->cpu, end = start + rnd_range(g, 6000, 12000);
	s->graph_call = emit_api(g, s, s->tid, start, end, "hipGraphLaunch", args, NULL, NULL);
	s->graph_end = end;
	s->cpu = end + rnd_range(g, 1000, 3000);
}

static void step(struct gen *g, struct gpu_state *s, uint64_t n)
{
	char text[64];
	snprintf(text, sizeof(text), "step %llu", (unsigned long long)n);
	push_range(s, text);
	instant_calls(g, s, n);
	copy(g, s, 1, 4 << 20, 0);
	push_range(s, "forward");
	if (g->p->graphs && n > 0)
		graph_launch(g, s, n);
	for (int i = 0; i < LAYERS; i++)
		layer(g, s, i, 0);
	s->graph_call = 0;
	pop_range(g, s);
	push_range(s, "backward");
	for (int i = LAYERS - 1; i >= 0; i--)
		layer(g, s, i, 1);
	pop_range(g, s);
	push_range(s, "optimizer");
	launch_kernel(g, s, &optimizer_kernel, Q_COMPUTE);
	barrier(g, s);
	pop_range(g, s);
	if (n % 4 == 3)
		copy(g, s, 3, 1 << 20, 0);
	copy(g, s, 2, 4096, 1);
	synchronize(g, s);
	pop_range(g, s);
	/* The input pipeline leaves the GPU idle between steps. */
	s->cpu += rnd_range(g, 2000000, 6000000);
}

unsigned gen_processes(const struct gen_params *p)
{
	unsigned n = p->gpus ? p->gpus : 1;
	return n > MAX_GPUS ? MAX_GPUS : n;
}

int64_t gen_pid(const struct gen_params *p, unsigned i)
{
	return (p->pid_base ? p->pid_base : 4100) + (int64_t)i * 7;
}

static void init_gpu(struct gpu_state *s, const struct gen_params *p, unsigned i, int64_t t0)
{
	memset(s, 0, sizeof(*s));
	s->gpu = i;
	s->pid = gen_pid(p, i);
	s->tid = s->pid;
	s->loader_tid = s->pid + 3;
	s->cpu = t0 + i * 1500;
	for (int q = 0; q < NQUEUES; q++)
		s->queue_free[q] = s->cpu;
}

int gen_run(const struct gen_params *p, const struct gen_sink *sink)
{
	struct gen g = { .p = p, .sink = sink, .rng = p->seed, .ops_left = p->ops };
	unsigned ngpus = gen_processes(p);
	struct gpu_state gpus[MAX_GPUS];
	/* Clock of a long-running host, in ns, like the profiler's. */
	const int64_t t0 = 1000000000000LL;
	for (unsigned i = 0; i < ngpus; i++)
		init_gpu(&gpus[i], p, i, t0);
	/* GPUs take steps in turn so that their rows interleave in time. */
	for (uint64_t n = 0; g.ops_left && !g.failed; n++)
		for (unsigned i = 0; i < ngpus && g.ops_left; i++)
			step(&g, &gpus[i], n);
	return g.failed ? -1 : 0;
}
