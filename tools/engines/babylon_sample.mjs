// How Babylon.js samples glTF animations: node local TRS and morph weights at given times (issue 25).
//
//     mkdir -p /tmp/engines-node && cp tools/engines/package.json /tmp/engines-node/
//     npm install --prefix /tmp/engines-node
//     node tools/engines/babylon_sample.mjs MANIFEST.json CASES_DIR > babylon.jsonl
//
// (ENGINES_NODE overrides /tmp/engines-node.) Each case's .glb is read into a fresh Scene of a NullEngine (no GPU,
// no DOM; scene.useRightHandedSystem = true, so the loader adds no handedness root -- node values are the file's
// either way) by AppendSceneAsync(Uint8Array, scene, {pluginExtension: ".glb"}) with the glTF plugin's
// animationStartMode NONE; the case's AnimationGroup (scene.animationGroups[case.animation], the loader's:
// 60 frames per second, normalize(0), so from = 0 and to = the last key frame of any channel).
// Player and time: for each query time t, the group is stopped and started afresh as the loader's default
// start mode does it, group.start(true) (loop = true, speed 1), then the scene's animation step is driven with
// explicit deltas -- scene._animate(0) (the step that fixes each animatable's start time), then
// scene._animate(t * 1000) (milliseconds; what scene.render() runs each frame with the clock's delta). So each
// channel's RuntimeAnimation turns t into frame (t * 1000) * 60 / 1000 and wraps it itself (loop: from +
// frame % (to - from)). goToFrame is not used: it clamps to the range and never loops.
// Read: the node whose _internalMetadata.gltf.pointers holds "/nodes/N" (the loader's own record of the glTF
// node), .position, .rotationQuaternion (x, y, z, w; the node's rest rotation when it has one), .scaling, and
// morphTargetManager influences of the node's mesh (the node itself for a one-primitive mesh, else its first
// primitive child).
// Prints one JSON line per case: {"case", "duration" (group.to / 60), "frames": [{node: {t, r, s, w?}} ...]}
// or {"case", "error"}; a first line {"engine": "babylon.js", "version": Engine.Version, "node": process.version}.
import { readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ENGINES = process.env.ENGINES_NODE || '/tmp/engines-node';
const mod = (p) => import(pathToFileURL(join(ENGINES, 'node_modules', p)).href);
const BABYLON = await mod('@babylonjs/core/index.js');
await mod('@babylonjs/loaders/glTF/2.0/index.js');
const { GLTFLoaderAnimationStartMode } = await mod('@babylonjs/loaders/glTF/glTFFileLoader.js');

// synchronous writes: every line is out before the process ends, even into a pipe
const out = (line) => writeSync(1, line + '\n');
const [manifestPath, casesDir] = process.argv.slice(2);
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
BABYLON.Logger.LogLevels = BABYLON.Logger.ErrorLogLevel;
const engine = new BABYLON.NullEngine();
out(JSON.stringify({ engine: 'babylon.js', version: BABYLON.Engine.Version, node: process.version }));

function nodeObjects(scene) {
	const byNode = new Map();
	for (const o of [...scene.transformNodes, ...scene.meshes]) {
		const pointers = o._internalMetadata?.gltf?.pointers || [];
		for (const p of pointers) {
			const m = /^\/nodes\/(\d+)$/.exec(p);
			if (m && !byNode.has(Number(m[1]))) byNode.set(Number(m[1]), o);
		}
	}
	return byNode;
}

function influences(o) {
	const candidates = [o, ...o.getChildMeshes(true)];
	for (const m of candidates) {
		const mtm = m.morphTargetManager;
		if (mtm) return Array.from({ length: mtm.numTargets }, (_, i) => mtm.getTarget(i).influence);
	}
	return null;
}

for (const c of manifest.cases) {
	let scene = null;
	try {
		scene = new BABYLON.Scene(engine);
		scene.useRightHandedSystem = true;
		const bytes = new Uint8Array(readFileSync(join(casesDir, c.file)));
		await BABYLON.AppendSceneAsync(bytes, scene, {
			pluginExtension: '.glb',
			pluginOptions: { gltf: { animationStartMode: GLTFLoaderAnimationStartMode.NONE } },
		});
		const group = scene.animationGroups[c.animation];
		if (!group) throw new Error(`no animation group ${c.animation} (babylon made ${scene.animationGroups.length})`);
		const byNode = nodeObjects(scene);
		const weighted = new Set(c.weights_nodes);
		const frames = [];
		for (const t of c.times) {
			group.stop();
			group.start(true);
			scene._animate(0);
			scene._animate(t * 1000);
			const frame = {};
			for (const n of c.nodes) {
				const o = byNode.get(n);
				if (!o) continue;
				const q = o.rotationQuaternion || BABYLON.Quaternion.FromEulerVector(o.rotation);
				const rec = { t: o.position.asArray(), r: [q.x, q.y, q.z, q.w], s: o.scaling.asArray() };
				if (weighted.has(n)) {
					const w = influences(o);
					if (w) rec.w = w;
				}
				frame[n] = rec;
			}
			frames.push(frame);
		}
		out(JSON.stringify({ case: c.name, duration: group.to / 60, from: group.from, to: group.to, frames }));
	} catch (err) {
		out(JSON.stringify({ case: c.name, error: String(err && err.stack ? err.stack : err) }));
	} finally {
		if (scene) scene.dispose();
	}
}
process.exit(0);
