// ONNX Runtime as a peer of bench/math: times each model of make_models.py
// on one thread (intra- and inter-op), with the output preallocated, through
// ORT's profiler: the sum of the graph's kernel times in each run (the
// session's own overhead excluded), median over the runs after warm-up.
// Inputs as math_bench.cpp's: uniform over [-8, 8], (2^-20, 16] for log,
// the bias over [-0.5, 0.5].
//
//   node ort_bench.js MODEL_DIR [RUNS]
// prints, per model: name, median ms, ns per element, and the kernels ORT ran.
//   node ort_bench.js MODEL_DIR --dump OUT_DIR
// instead runs each single-function DRAM-sized model on every 1367th f32 bit
// pattern and writes its outputs to OUT_DIR/Ort_<function>.f32, for
// `math_bench --accuracy OUT_DIR` to measure against its reference.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const ort = require('onnxruntime-node');

const dir = path.resolve(process.argv[2]);
const dump = process.argv[3] === '--dump' ? path.resolve(process.argv[4]) : null;
const runs = dump ? 0 : Number(process.argv[3] || 21);
const warmup = 3;

// A small deterministic generator (xorshift32): the distribution matters,
// not the exact values.
function uniform(n, lo, hi, seed) {
  const a = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; ++i) {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    a[i] = lo + (hi - lo) * (s / 4294967296);
  }
  return a;
}

function median(v) {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function time(file) {
  const name = path.basename(file, '.onnx');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ort-bench-'));
  const session = await ort.InferenceSession.create(file, {
    executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential',
    graphOptimizationLevel: 'all', enableProfiling: true, profileFilePrefix: path.join(work, 'profile'),
  });
  const feeds = {};
  let elements = 0;
  for (const input of session.inputNames) {
    const meta = session.inputMetadata.find((m) => m.name === input);
    const shape = meta.shape;
    const n = shape.reduce((a, b) => a * b, 1);
    const positive = name.startsWith('log');
    const [lo, hi] = input === 'b' && !name.startsWith('gate') ? [-0.5, 0.5] : positive ? [2 ** -20, 16] : [-8, 8];
    feeds[input] = new ort.Tensor('float32', uniform(n, lo, hi, 7 + Object.keys(feeds).length), shape);
    if (input === 'x') elements = n;
  }
  const y = new ort.Tensor('float32', new Float32Array(elements), feeds.x.dims);
  for (let i = 0; i < warmup + runs; ++i) await session.run(feeds, { y });
  session.endProfiling();
  const profile = fs.readdirSync(work).find((f) => f.endsWith('.json'));
  const events = JSON.parse(fs.readFileSync(path.join(work, profile), 'utf8'));
  fs.rmSync(work, { recursive: true });
  const windows = events.filter((e) => e.cat === 'Session' && e.name === 'model_run').slice(warmup);
  const kernels = events.filter((e) => e.cat === 'Node' && e.name.endsWith('_kernel_time'));
  const ops = new Set();
  const totals = windows.map((w) => {
    let sum = 0;
    for (const k of kernels) {
      if (k.ts >= w.ts && k.ts <= w.ts + w.dur) {
        sum += k.dur;
        ops.add(k.args.op_name);
      }
    }
    return sum;
  });
  const ms = median(totals) / 1000;
  const per_element = ((ms * 1e6) / elements).toFixed(3);
  console.log(`Ort/${name} ${ms.toFixed(3)} ms ${per_element} ns_per_elt kernels=${[...ops].join('+')}`);
}

// The outputs on the bit patterns 1367 i (clamped to 0xffffffff), as
// math_bench.cpp's accuracy mode feeds them.
async function write_outputs(file, name) {
  const session = await ort.InferenceSession.create(file, { executionProviders: ['cpu'], intraOpNumThreads: 1 });
  const shape = session.inputMetadata[0].shape;
  const n = shape.reduce((a, b) => a * b, 1);
  const bits = new Uint32Array(n);
  for (let i = 0; i < n; ++i) bits[i] = Math.min(1367 * i, 0xffffffff);
  const out = await session.run({ x: new ort.Tensor('float32', new Float32Array(bits.buffer), shape) });
  fs.writeFileSync(path.join(dump, `Ort_${name}.f32`), Buffer.from(out.y.data.buffer, out.y.data.byteOffset, n * 4));
}

const fused = ['bias_gelu', 'bias_silu', 'gate'];

(async () => {
  const models = fs.readdirSync(dir).filter((f) => f.endsWith('.onnx')).sort();
  for (const f of models) {
    if (!dump) {
      await time(path.join(dir, f));
    } else if (f.endsWith('_8x128x3072.onnx') && !fused.some((p) => f.startsWith(p))) {
      await write_outputs(path.join(dir, f), f.replace('_8x128x3072.onnx', ''));
    }
  }
})();

