// Per-frame animation cost of the PEER engine three.js on glTF models -- a reference figure for animview's
// `animview bench` (sampling, pose, joint matrices), not a measurement of animview.
//
// Install three.js OUTSIDE the repository (nothing goes into the repo's tree):
//     npm install --prefix /tmp/threejs-peer three@0.187.0
//     node tools/peer_threejs.mjs MODEL.glb [MODEL2.gltf ...]
// (or: cp tools/peer_threejs.package.json /tmp/threejs-peer/package.json && npm install --prefix /tmp/threejs-peer)
// The script imports /tmp/threejs-peer/node_modules/three by file URL; set THREE_DIR to the --prefix folder
// used instead (NODE_PATH does not apply to ES module imports). Needs Node >= 18 (global fetch for data: URIs).
// Options (the frame counts used are printed): --warm-frames N (50000) and --warm-seconds S (1): the warm-up
// lasts at least both; --frames N (20000) and --run-seconds S (0.25): each run lasts at least both (so runs
// of a one-channel model are long enough to time); --runs N (5); --max-seconds S (6): caps the warm-up, and
// each run at S / runs, on big models; --clip K|NAME: the clip measured (default 0, the first; "first clip"
// below means this one).
//
// Loading: the file is read with node:fs and handed to GLTFLoader.parse (no renderer, no DOM). Images,
// textures and texture samplers are removed from the JSON first (and every textureInfo from materials), so
// the loader never needs an image decoder; external buffers are inlined as base64 data: URIs (three's
// FileLoader fetches those; a ProgressEvent class is stubbed for it, Node has none). A .glb is repacked with
// the edited JSON chunk and its BIN chunk unchanged.
//
// Printed per model, one JSON line:
//   {"model", "three", "node", "clip", "duration_s", "frames_warm", "frames_per_run",
//    "update_us_runs": [...], "update_us_range": [lo, hi],
//    "sample_channels_per_s_runs": [...], "sample_range": [lo, hi],
//    "channels", "nodes", "objects", "joints", "skeletons", "interpolations"}
// or {"model", "three", "node", "error"} when three.js cannot load it (the run goes on with the next model).
//   channels: tracks of the first clip (three makes one per glTF channel; a weights channel on a node whose
//     mesh has several primitives becomes one track per primitive); nodes: glTF nodes; objects: Object3Ds
//     in the loaded scene (what updateMatrixWorld walks); joints: bones summed over the distinct skeletons
//     (three makes one Skeleton per skinned primitive); interpolations: the first clip's glTF samplers'.
//
// Method.
//   update = per frame: mixer.setTime(t) with the first clip's action playing (t advancing by
//     duration / 1000 each frame, wrapping to 0 past the end), then scene.updateMatrixWorld(), then
//     skeleton.update() for every distinct skeleton of a SkinnedMesh: the work of animview's sample + pose
//     + joint matrices. Warmed first (V8's JIT needs it: 50 000 frames and 1 s by default), then --runs
//     runs of at least --frames frames each; microseconds per frame per run.
//   sampling alone = per frame, interpolant.evaluate(t) for every track of the first clip
//     (clip.tracks.map(tr => tr.createInterpolant()); GLTFLoader's CUBICSPLINE tracks give its own
//     cubic-spline interpolants, LINEAR rotations a slerping one, STEP a discrete one), t stepping the same
//     way; channels x frames / seconds per run, warmed and repeated likewise.
//   On a model so big that the warm-up would take over --max-seconds, it stops at that time (at least 200
//   frames), and each run is shortened to about --max-seconds / runs (at least 50 frames).
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

// three's FileLoader (data: URI buffers, fetched) reports progress with the browser's ProgressEvent.
globalThis.ProgressEvent ??= class ProgressEvent extends Event {
	constructor(type, init = {}) { super(type); Object.assign(this, init); }
};

const THREE_DIR = process.env.THREE_DIR || '/tmp/threejs-peer';
const THREE_ROOT = join(THREE_DIR, 'node_modules', 'three');

function parseArgs(argv) {
	const opts = { warmFrames: 50000, warmSeconds: 1, frames: 20000, runSeconds: 0.25, runs: 5, maxSeconds: 6,
		clip: '0', models: [] };
	const names = { '--warm-frames': 'warmFrames', '--warm-seconds': 'warmSeconds', '--frames': 'frames',
		'--run-seconds': 'runSeconds', '--runs': 'runs', '--max-seconds': 'maxSeconds' };
	for (let i = 0; i < argv.length; i++) {
		if (names[argv[i]]) opts[names[argv[i]]] = Number(argv[++i]);
		else if (argv[i] === '--clip') opts.clip = argv[++i];
		else if (argv[i] === '-h' || argv[i] === '--help') opts.help = true;
		else opts.models.push(argv[i]);
	}
	return opts;
}

// ---- loading ------------------------------------------------------------------------------------------

function splitGlb(bytes) {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const length = Math.min(view.getUint32(8, true), bytes.byteLength);
	let offset = 12, json = null, bin = null;
	while (offset + 8 <= length) {
		const size = view.getUint32(offset, true), type = view.getUint32(offset + 4, true);
		const chunk = bytes.subarray(offset + 8, offset + 8 + size);
		if (type === 0x4e4f534a && json === null) json = JSON.parse(new TextDecoder().decode(chunk));
		else if (type === 0x004e4942 && bin === null) bin = chunk;
		offset += 8 + size;
	}
	if (json === null) throw new Error('GLB has no JSON chunk');
	return { json, bin };
}

function glbBytes(json, bin) {
	const enc = new TextEncoder().encode(JSON.stringify(json));
	const jsonLen = Math.ceil(enc.length / 4) * 4;
	const binLen = bin ? Math.ceil(bin.length / 4) * 4 : 0;
	const total = 12 + 8 + jsonLen + (bin ? 8 + binLen : 0);
	const out = new Uint8Array(total);
	const view = new DataView(out.buffer);
	view.setUint32(0, 0x46546c67, true); view.setUint32(4, 2, true); view.setUint32(8, total, true);
	view.setUint32(12, jsonLen, true); view.setUint32(16, 0x4e4f534a, true);
	out.fill(0x20, 20, 20 + jsonLen); out.set(enc, 20);
	if (bin) {
		view.setUint32(20 + jsonLen, binLen, true); view.setUint32(24 + jsonLen, 0x004e4942, true);
		out.set(bin, 28 + jsonLen);
	}
	return out.buffer;
}

function stripTextureInfos(obj) { // delete every {index: N, ...} textureInfo under a material, at any depth
	if (obj === null || typeof obj !== 'object') return;
	for (const key of Object.keys(obj)) {
		const v = obj[key];
		const textureInfo = v && typeof v === 'object' && typeof v.index === 'number' && /Texture$/.test(key);
		if (textureInfo) delete obj[key];
		else stripTextureInfos(v);
	}
}

function prepare(file) {
	const bytes = readFileSync(file);
	const isGlb = bytes.length >= 4 && bytes.toString('latin1', 0, 4) === 'glTF';
	const { json, bin } = isGlb ? splitGlb(bytes) : { json: JSON.parse(bytes.toString('utf8')), bin: null };
	delete json.images; delete json.textures; delete json.samplers;
	for (const m of json.materials || []) stripTextureInfos(m);
	for (const ext of ['KHR_texture_transform', 'KHR_texture_basisu', 'EXT_texture_webp', 'EXT_texture_avif']) {
		json.extensionsUsed = (json.extensionsUsed || []).filter((e) => e !== ext);
		json.extensionsRequired = (json.extensionsRequired || []).filter((e) => e !== ext);
	}
	for (const b of json.buffers || []) {
		if (b.uri !== undefined && !b.uri.startsWith('data:')) {
			const data = readFileSync(join(dirname(file), decodeURIComponent(b.uri)));
			b.uri = 'data:application/octet-stream;base64,' + data.toString('base64');
		}
	}
	return isGlb ? glbBytes(json, bin) : JSON.stringify(json);
}

async function load(THREE, GLTFLoader, file) {
	const loader = new GLTFLoader();
	const gltf = await new Promise((ok, fail) => loader.parse(prepare(file), '', ok, fail));
	return gltf;
}

// ---- measuring ----------------------------------------------------------------------------------------

function timeLoop(step, opts) {
	// Warm-up: at least --warm-frames frames and --warm-seconds, stopping at --max-seconds (but never under
	// 200 frames). Each run: at least --frames frames and --run-seconds, at most --max-seconds / runs (but
	// never under 50 frames). Returns {warm, perRun, seconds: [per run]}.
	const now = () => performance.now() / 1000;
	let warm = 0;
	const start = now();
	for (;;) {
		step(); warm++;
		if (warm < 200 || (warm & 63) !== 0) continue;
		const spent = now() - start;
		if (spent >= opts.maxSeconds || (warm >= opts.warmFrames && spent >= opts.warmSeconds)) break;
	}
	const perFrame = (now() - start) / warm;
	const wanted = Math.max(opts.frames, Math.round(opts.runSeconds / perFrame));
	const perRun = Math.max(50, Math.min(wanted, Math.round(opts.maxSeconds / opts.runs / perFrame)));
	const seconds = [];
	for (let r = 0; r < opts.runs; r++) {
		const t0 = now();
		for (let f = 0; f < perRun; f++) step();
		seconds.push(now() - t0);
	}
	return { warm, perRun, seconds };
}

const round = (x, digits) => Number(x.toPrecision(digits));

function measure(THREE, gltf, opts) {
	const scene = gltf.scene || gltf.scenes[0];
	const clips = gltf.animations;
	const clip = /^[0-9]+$/.test(opts.clip) ? clips[Number(opts.clip)] : clips.find((c) => c.name === opts.clip);
	if (!clip) {
		const names = clips.map((c) => c.name).join(', ');
		throw new Error(clips.length ? `no clip ${opts.clip} (it has ${names})` : 'no animation');
	}
	const duration = clip.duration;
	const dt = duration / 1000;
	const skeletons = new Set();
	let objects = 0;
	scene.traverse((o) => { objects++; if (o.isSkinnedMesh && o.skeleton) skeletons.add(o.skeleton); });
	const skels = [...skeletons];

	const mixer = new THREE.AnimationMixer(scene);
	mixer.clipAction(clip).play();
	let t = 0;
	const update = () => {
		t += dt; if (t > duration) t = 0;
		mixer.setTime(t);
		scene.updateMatrixWorld();
		for (let i = 0; i < skels.length; i++) skels[i].update();
	};
	const u = timeLoop(update, opts);

	const interps = clip.tracks.map((tr) => tr.createInterpolant());
	let s = 0;
	const sample = () => {
		s += dt; if (s > duration) s = 0;
		for (let i = 0; i < interps.length; i++) interps[i].evaluate(s);
	};
	const v = timeLoop(sample, opts);

	const updateUs = u.seconds.map((sec) => round(sec * 1e6 / u.perRun, 4));
	const rates = v.seconds.map((sec) => round(interps.length * v.perRun / sec, 4));
	return {
		clip: clip.name, duration_s: round(duration, 6),
		frames_warm: { update: u.warm, sample: v.warm }, frames_per_run: { update: u.perRun, sample: v.perRun },
		update_us_runs: updateUs, update_us_range: [Math.min(...updateUs), Math.max(...updateUs)],
		sample_channels_per_s_runs: rates, sample_range: [Math.min(...rates), Math.max(...rates)],
		channels: clip.tracks.length, objects,
		joints: skels.reduce((n, sk) => n + sk.bones.length, 0), skeletons: skels.length,
	};
}

function gltfFacts(file, clipName) { // node count and the clip's sampler interpolations, from the file's own JSON
	const bytes = readFileSync(file);
	const json = bytes.toString('latin1', 0, 4) === 'glTF' ? splitGlb(bytes).json : JSON.parse(bytes.toString('utf8'));
	const anims = json.animations || [];
	// GLTFLoader names an unnamed animation "animation_K" and keeps the file's order
	const anim = anims.find((a, k) => (a.name || `animation_${k}`) === clipName);
	const interpolations = anim ? [...new Set(anim.samplers.map((s) => s.interpolation || 'LINEAR'))].sort() : [];
	return { nodes: (json.nodes || []).length, interpolations };
}

async function main() {
	const opts = parseArgs(process.argv.slice(2));
	if (opts.help || opts.models.length === 0) {
		console.error('usage: node tools/peer_threejs.mjs MODEL [MODEL...] [--warm-frames N] [--warm-seconds S] [--frames N] [--run-seconds S] [--runs N] [--max-seconds S] [--clip K|NAME]');
		process.exit(opts.help ? 0 : 2);
	}
	let THREE, GLTFLoader;
	try {
		THREE = await import(pathToFileURL(join(THREE_ROOT, 'build', 'three.module.js')).href);
		({ GLTFLoader } = await import(pathToFileURL(join(THREE_ROOT, 'examples', 'jsm', 'loaders', 'GLTFLoader.js')).href));
	} catch (err) {
		console.error(`peer_threejs: three.js not found under ${THREE_DIR} (npm install --prefix ${THREE_DIR} three@0.187.0, or set THREE_DIR): ${err.message}`);
		process.exit(2);
	}
	let failed = 0;
	for (const model of opts.models) {
		const head = { model: basename(model), three: THREE.REVISION, node: process.version };
		try {
			const gltf = await load(THREE, GLTFLoader, resolve(model));
			const m = measure(THREE, gltf, opts);
			const facts = gltfFacts(model, m.clip);
			console.log(JSON.stringify({ ...head, ...m, nodes: facts.nodes, interpolations: facts.interpolations }));
		} catch (err) {
			failed++;
			console.log(JSON.stringify({ ...head, error: String(err && err.message ? err.message : err) }));
		}
	}
	process.exit(failed ? 1 : 0);
}

main();
