// How three.js samples glTF animations: node local TRS and morph weights at given times (issue 25).
//
//     mkdir -p /tmp/engines-node && cp tools/engines/package.json /tmp/engines-node/
//     npm install --prefix /tmp/engines-node
//     node tools/engines/three_sample.mjs MANIFEST.json CASES_DIR > three.jsonl
//
// (ENGINES_NODE overrides /tmp/engines-node.) MANIFEST is tools/engine_cases.py's; each case's .glb (under
// CASES_DIR) is handed as an ArrayBuffer to GLTFLoader.parse (no DOM, no renderer; the cases carry no images).
// Player: an AnimationMixer on gltf.scene, clipAction(gltf.animations[case.animation]).play() with its default
// loop (LoopRepeat, repetitions Infinity, weight 1). Time: for each query time t, mixer.setTime(t) -- which zeroes
// the mixer's and the action's time and then runs mixer.update(t), so the action wraps t itself
// (AnimationAction._updateTime: t >= duration wraps by floor(t / duration) * duration).
// Read: the Object3D of each glTF node (parser.associations: object -> {nodes: index}) .position, .quaternion
// (x, y, z, w), .scale, and morphTargetInfluences of the node's mesh (the node itself for a one-primitive mesh,
// else its first child mesh).
// Prints one JSON line per case: {"case", "duration" (clip.duration), "frames": [{node: {t, r, s, w?}} per time]}
// or {"case", "error"}; a first line {"engine": "three.js", "version": REVISION, "node": process.version}.
import { readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

globalThis.ProgressEvent ??= class ProgressEvent extends Event {
	constructor(type, init = {}) { super(type); Object.assign(this, init); }
};

const ENGINES = process.env.ENGINES_NODE || '/tmp/engines-node';
const THREE_ROOT = join(ENGINES, 'node_modules', 'three');
const THREE = await import(pathToFileURL(join(THREE_ROOT, 'build', 'three.module.js')).href);
const { GLTFLoader } = await import(pathToFileURL(join(THREE_ROOT, 'examples', 'jsm', 'loaders', 'GLTFLoader.js')).href);

// synchronous writes: every line is out before the process ends, even into a pipe
const out = (line) => writeSync(1, line + '\n');
const [manifestPath, casesDir] = process.argv.slice(2);
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
out(JSON.stringify({ engine: 'three.js', version: THREE.REVISION, node: process.version }));

const loaded = new Map(); // file -> gltf (models share a file between their animations' cases)

async function load(file) {
	const bytes = readFileSync(join(casesDir, file));
	const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
	const loader = new GLTFLoader();
	return await new Promise((ok, fail) => loader.parse(buffer, '', ok, fail));
}

function nodeObjects(gltf) {
	const byNode = new Map();
	gltf.scene.traverse((o) => {
		const a = gltf.parser.associations.get(o);
		if (a && a.nodes !== undefined && !byNode.has(a.nodes)) byNode.set(a.nodes, o);
	});
	return byNode;
}

function influences(o) {
	if (o.morphTargetInfluences) return o.morphTargetInfluences;
	for (const c of o.children) if (c.isMesh && c.morphTargetInfluences) return c.morphTargetInfluences;
	return null;
}

for (const c of manifest.cases) {
	try {
		// a fresh load per case: an action's state (loop count) never leaks from one case to the next
		const gltf = await load(c.file);
		const clip = gltf.animations[c.animation];
		if (!clip) throw new Error(`no animation ${c.animation} (three made ${gltf.animations.length})`);
		const byNode = nodeObjects(gltf);
		const mixer = new THREE.AnimationMixer(gltf.scene);
		mixer.clipAction(clip).play();
		const weighted = new Set(c.weights_nodes);
		const frames = [];
		for (const t of c.times) {
			mixer.setTime(t);
			const frame = {};
			for (const n of c.nodes) {
				const o = byNode.get(n);
				if (!o) continue;
				const rec = { t: o.position.toArray(), r: o.quaternion.toArray(), s: o.scale.toArray() };
				if (weighted.has(n)) {
					const w = influences(o);
					if (w) rec.w = Array.from(w);
				}
				frame[n] = rec;
			}
			frames.push(frame);
		}
		out(JSON.stringify({ case: c.name, duration: clip.duration, frames }));
	} catch (err) {
		out(JSON.stringify({ case: c.name, error: String(err && err.message ? err.message : err) }));
	}
}
