// ONNX Runtime on each group model of make_group_models.py: one thread, all
// graph optimizations, the output preallocated, timed by ORT's profiler (the
// sum of the graph's kernel times per run, whole microseconds; the session's
// own overhead excluded), median over the runs after warm-up. Inputs uniform
// over [-4, 4). Prints: model file stem, median ns.
//
//   NODE_PATH=bench/math/ort/node_modules node ort_groups.js DIR [RUNS]
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const ort = require('onnxruntime-node');

const dir = path.resolve(process.argv[2]);
const runs = Number(process.argv[3] || 21);
const warmup = 5;

function inputs(n, seed) {
  const a = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; ++i) {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    a[i] = -4 + 8 * (s / 4294967296);
  }
  return a;
}

function median(v) {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function time(file) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ort-groups-'));
  const session = await ort.InferenceSession.create(file, {
    executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential',
    graphOptimizationLevel: 'all', enableProfiling: true, profileFilePrefix: path.join(work, 'profile'),
  });
  const feeds = {};
  for (const input of session.inputNames) {
    const shape = session.inputMetadata.find((m) => m.name === input).shape;
    feeds[input] = new ort.Tensor('float32', inputs(shape.reduce((a, b) => a * b, 1), 7 + Object.keys(feeds).length), shape);
  }
  const out = session.outputNames[0];
  const shape = session.outputMetadata.find((m) => m.name === out).shape;
  const fetches = {[out]: new ort.Tensor('float32', new Float32Array(shape.reduce((a, b) => a * b, 1)), shape)};
  for (let i = 0; i < warmup + runs; ++i) await session.run(feeds, fetches);
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
  console.log([path.basename(file, '.onnx'), (median(totals) * 1000).toFixed(0)].join('\t'));
}

(async () => {
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.onnx')).sort()) await time(path.join(dir, f));
})();
