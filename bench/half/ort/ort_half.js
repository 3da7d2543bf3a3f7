// ONNX Runtime as a peer of bench/half: times each model of make_models.py on
// one thread, the output preallocated, through ORT's profiler (the sum of
// the graph's kernel times per run, the session's overhead excluded; whole
// microseconds), median over the runs after warm-up. Inputs uniform over
// [-4, 4), as half_bench.cpp's. Prints half_bench's lines: case, dtype,
// "onnxruntime", median ns, (no mismatch count), bytes.
//
//   node ort_half.js MODEL_DIR [RUNS]
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const ort = require('onnxruntime-node');

const dir = path.resolve(process.argv[2]);
const runs = Number(process.argv[3] || 11);
const warmup = 3;

// f32 -> f16 bits, to nearest (the values only need to be in range).
function half_bits(x) {
  const f = new Float32Array([x]), u = new Uint32Array(f.buffer)[0];
  const sign = (u >>> 16) & 0x8000, e = ((u >>> 23) & 0xff) - 127 + 15, m = u & 0x7fffff;
  if (e <= 0) return sign;  // |x| < 2^-14: zero is close enough here
  return sign | (e << 10) | Math.round(m / 8192);
}

function inputs(n, dtype, seed) {
  const a = dtype === 'f32' ? new Float32Array(n) : new Uint16Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; ++i) {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    const v = -4 + 8 * (s / 4294967296);
    a[i] = dtype === 'f32' ? v : half_bits(v);
  }
  return a;
}

function median(v) {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function time(file) {
  const [name, dtype] = path.basename(file, '.onnx').split(/_(?=f16$|f32$)/);
  const type = dtype === 'f32' ? 'float32' : 'float16';
  const size = dtype === 'f32' ? 4 : 2;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ort-half-'));
  const session = await ort.InferenceSession.create(file, {
    executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential',
    graphOptimizationLevel: 'all', enableProfiling: true, profileFilePrefix: path.join(work, 'profile'),
  });
  const feeds = {};
  let bytes = 0, out_shape = null;
  for (const input of session.inputNames) {
    const shape = session.inputMetadata.find((m) => m.name === input).shape;
    const n = shape.reduce((a, b) => a * b, 1);
    feeds[input] = new ort.Tensor(type, inputs(n, dtype, 7 + Object.keys(feeds).length), shape);
    bytes += n * size;
    if (input === 'x') out_shape = shape;
  }
  const n = out_shape.reduce((a, b) => a * b, 1);
  bytes += n * size;
  const y = new ort.Tensor(type, dtype === 'f32' ? new Float32Array(n) : new Uint16Array(n), out_shape);
  for (let i = 0; i < warmup + runs; ++i) await session.run(feeds, { y });
  session.endProfiling();
  const profile = fs.readdirSync(work).find((f) => f.endsWith('.json'));
  const events = JSON.parse(fs.readFileSync(path.join(work, profile), 'utf8'));
  fs.rmSync(work, { recursive: true });
  const windows = events.filter((e) => e.cat === 'Session' && e.name === 'model_run').slice(warmup);
  const kernels = events.filter((e) => e.cat === 'Node' && e.name.endsWith('_kernel_time'));
  const totals = windows.map((w) => {
    let sum = 0;
    for (const k of kernels) {
      if (k.ts >= w.ts && k.ts <= w.ts + w.dur) sum += k.dur;
    }
    return sum;
  });
  console.log([name, dtype, 'onnxruntime', (median(totals) * 1000).toFixed(0), '', bytes].join('\t'));
}

(async () => {
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.onnx')).sort()) await time(path.join(dir, f));
})();
