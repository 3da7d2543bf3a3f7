// The one ONNX Runtime driver of the benchmarks (bench/ort/ort_peer.py
// writes the cases and reads its lines). Runs each case of CASES_JSON
// (model, input files, output) in ONNX Runtime: one thread, all graph
// optimizations, the output preallocated, warm-up then RUNS profiled runs.
// Writes the last run's output to its file, where the case names one, and
// prints one JSON line per case: {case, samples_ns, graph, kernels},
// samples being the per-run sums of the graph's kernel times (the
// profiler's whole microseconds), graph the kernels ORT ran after its
// fusions and kernels their count; or {case, error} for a model ORT cannot
// load (no kernel for the type).
//
//   NODE_PATH=bench/ort/node_modules node ort_cases.js CASES_JSON [RUNS]
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const ort = require('onnxruntime-node');

const cases = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const runs = Number(process.argv[3] || 21);
const warmup = 3;
const ARRAYS = { f32: ['float32', Float32Array], f16: ['float16', Uint16Array], u8: ['uint8', Uint8Array],
                 i32: ['int32', Int32Array], bool: ['bool', Uint8Array] };

function tensor(dtype, shape, bytes) {
  const [type, Arr] = ARRAYS[dtype];
  const n = shape.reduce((a, b) => a * b, 1);
  const data = bytes ? new Arr(bytes.buffer, bytes.byteOffset, n) : new Arr(n);
  return new ort.Tensor(type, data, shape);
}

async function run(c) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ort-cases-'));
  const session = await ort.InferenceSession.create(c.model, {
    executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential',
    graphOptimizationLevel: 'all', enableProfiling: true, profileFilePrefix: path.join(work, 'profile'),
  });
  const feeds = {};
  for (const i of c.inputs) {
    const b = fs.readFileSync(i.file);
    const copy = new Uint8Array(b.length);  // an aligned buffer of its own
    copy.set(b);
    feeds[i.name] = tensor(i.dtype, i.shape, copy);
  }
  const y = tensor(c.output.dtype, c.output.shape, null);
  for (let k = 0; k < warmup + runs; ++k) await session.run(feeds, { [c.output.name]: y });
  session.endProfiling();
  if (c.output.file) fs.writeFileSync(c.output.file, Buffer.from(y.data.buffer, y.data.byteOffset, y.data.byteLength));
  const profile = fs.readdirSync(work).find((f) => f.endsWith('.json'));
  const events = JSON.parse(fs.readFileSync(path.join(work, profile), 'utf8'));
  fs.rmSync(work, { recursive: true });
  const windows = events.filter((e) => e.cat === 'Session' && e.name === 'model_run').slice(warmup);
  const kernels = events.filter((e) => e.cat === 'Node' && e.name.endsWith('_kernel_time'));
  const samples = windows.map((w) => {
    let sum = 0;
    for (const k of kernels) if (k.ts >= w.ts && k.ts <= w.ts + w.dur) sum += k.dur;
    return sum * 1000;
  });
  const first = kernels.filter((k) => k.ts >= windows[0].ts && k.ts <= windows[0].ts + windows[0].dur);
  const ops = first.map((k) => k.args && k.args.op_name).filter(Boolean);
  console.log(JSON.stringify({ case: c.case, samples_ns: samples, graph: ops.join(' + '), kernels: first.length }));
}

(async () => {
  for (const c of cases) {
    try {
      await run(c);
    } catch (e) {  // no kernel for the type (uint8 Add): the case is n/a for this peer
      console.log(JSON.stringify({ case: c.case, error: String(e.message).split('\n')[0] }));
    }
  }
})();
