// An independent world-space error measurement: how far a reduced/compressed copy of a glTF file moves its nodes
// and vertices away from the original, as three.js plays both (tools/reduce_peers.py runs it next to animview's own
// compare.diff, so a bug in one measurement shows up as a disagreement with the other).
//
//     mkdir -p /tmp/engines-node && cp tools/engines/package.json /tmp/engines-node/
//     npm install --prefix /tmp/engines-node
//     node tools/engines/world_error.mjs ORIGINAL.glb CANDIDATE.glb [--fps 120]
//
// (ENGINES_NODE overrides /tmp/engines-node.) Both files are read into ArrayBuffers and handed to
// GLTFLoader.parse (no DOM, no renderer; a .gltf's external buffers are resolved next to the file through a
// file:// path; textures are replaced by empty ones); gltfpack's EXT/KHR_meshopt_compression is decoded with three's own
// MeshoptDecoder, KHR_mesh_quantization (the dequantizing node transform) is three's as it loads it.
//
// Clips: animation k of the original is paired with the candidate's animation of the same glTF name, else the one
// at index k. Player: an AnimationMixer per scene, clipAction(clip) with setLoop(LoopOnce) and
// clampWhenFinished = true, so t = duration is the last pose and not the wrapped first one; for each time:
// action.reset() (un-pauses a finished action) then mixer.setTime(t), then scene.updateMatrixWorld(true).
// Times: the union of both clips' key times, the midpoints between consecutive ones and a grid at --fps (default
// 120) from 0 to the ORIGINAL clip's duration, all clamped to [0, that duration].
//
// Nodes: every glTF node of the original (parser.associations: Object3D -> {nodes: index}) is paired with the
// candidate's node of the same glTF name (the JSON name, not three's sanitized/uniquified Object3D.name; the
// k-th node of a name with the k-th); a node without a name pairs by its place in the tree (its parent's key and
// its ordinal among its siblings), not by index: gltfpack renumbers nodes. Distance: |world position A - B|
// (matrixWorld's translation). Unmatched nodes are counted, not measured.
//
// Meshes: every Mesh / SkinnedMesh object, keyed by its anchor -- the nearest glTF node at or above it that
// both files have (gltfpack moves a quantized mesh into a new unnamed child node) -- and its ordinal under that
// anchor (a multi-primitive mesh is a Group of meshes). Vertex world positions: Mesh.getVertexPosition(i, v)
// (three/src/objects/Mesh.js: the POSITION attribute, de-normalized by BufferAttribute.getX, plus the morph
// targets times morphTargetInfluences), overridden by SkinnedMesh.getVertexPosition (SkinnedMesh.js: super's,
// then applyBoneTransform: v' = bindMatrixInverse * sum_i w_i * bones[i].matrixWorld * boneInverses[i] *
// bindMatrix * v, so the result is in the mesh's local space), then Object3D.localToWorld (matrixWorld). Up to
// 2000 evenly spaced vertex indices per mesh plus the vertices with the smallest and largest x, y and z (in the
// rest pose). Vertices pair by index when both meshes hold the same rest positions, else each original vertex
// with the candidate's vertex nearest to it in the rest pose (gltfpack reorders, welds and quantizes vertices).
//
// Prints one JSON object: {a, b, three: REVISION, fps, clips: [{name, index, candidate, max_node_distance,
// max_vertex_distance, max_distance, worst: {kind, node|mesh, vertex?, t, distance}, times}], max_distance,
// unmatched: {nodes, meshes}, matched: {nodes, meshes}, vertex_rules: {...}} or {error} (exit code 1).
import { readFileSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

globalThis.ProgressEvent ??= class ProgressEvent extends Event {
	constructor(type, init = {}) { super(type); Object.assign(this, init); }
};

const ENGINES = process.env.ENGINES_NODE || '/tmp/engines-node';
const THREE_ROOT = join(ENGINES, 'node_modules', 'three');
const jsm = (p) => pathToFileURL(join(THREE_ROOT, 'examples', 'jsm', p)).href;
const THREE = await import(pathToFileURL(join(THREE_ROOT, 'build', 'three.module.js')).href);
const { GLTFLoader } = await import(jsm('loaders/GLTFLoader.js'));
const { MeshoptDecoder } = await import(jsm('libs/meshopt_decoder.module.js'));

const out = (obj) => writeSync(1, JSON.stringify(obj) + '\n');
const VERTEX_BUDGET = 2000;

function parseArgs(argv) {
	const files = [];
	let fps = 120;
	for (let i = 0; i < argv.length; i++) {
		if (argv[i] === '--fps') fps = Number(argv[++i]);
		else files.push(argv[i]);
	}
	if (files.length !== 2 || !(fps > 0)) {
		throw new Error('usage: node world_error.mjs ORIGINAL.glb CANDIDATE.glb [--fps 120]');
	}
	return { files, fps };
}

async function load(file) {
	const bytes = readFileSync(file);
	const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
	const loader = new GLTFLoader();
	loader.setMeshoptDecoder(MeshoptDecoder);
	// no DOM to decode images with, and textures do not move anything: every texture is an empty one
	loader.register(() => ({ name: 'animview_no_textures', loadTexture: () => Promise.resolve(new THREE.Texture()) }));
	// a .gltf's external .bin: Node's fetch reads file:// URLs no more; FileLoader uses fetch, so give it data
	const base = pathToFileURL(dirname(resolve(file)) + '/').href;
	return await new Promise((ok, fail) => loader.parse(buffer, base, ok, fail));
}

// Node's fetch() does not read file:// URLs: serve them from disk (FileLoader fetches a .gltf's .bin files).
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
	const url = typeof input === 'string' ? input : input.url;
	if (url.startsWith('file:')) {
		const data = readFileSync(new URL(url));
		return new Response(data, { status: 200 });
	}
	return realFetch(input, init);
};

// Node keys from the JSON: a named node's key is its name (the k-th node of a name: "name~k"); an unnamed node's
// is its parent's key (or the scene) and its ordinal among its siblings, so unnamed nodes still pair when a
// tool renumbers the nodes (gltfpack does) -- a plain index would pair unrelated nodes.
function nodeKeys(json) {
	const nodes = json.nodes || [];
	const keys = new Array(nodes.length).fill(null);
	const seen = new Map();
	const visit = (i, parentKey, ordinal) => {
		if (i >= nodes.length || keys[i] !== null) return;
		const name = nodes[i] && typeof nodes[i].name === 'string' && nodes[i].name ? nodes[i].name : null;
		let key;
		if (name !== null) {
			const k = seen.get(name) || 0;
			seen.set(name, k + 1);
			key = k ? `${name}~${k}` : name;
		} else {
			key = `${parentKey}/#${ordinal}`;
		}
		keys[i] = key;
		(nodes[i].children || []).forEach((c, o) => visit(c, key, o));
	};
	const scenes = json.scenes || [];
	const scene = scenes[json.scene || 0] || { nodes: [] };
	(scene.nodes || []).forEach((r, o) => visit(r, '', o));
	nodes.forEach((_, i) => visit(i, '(not in the scene)', i));
	return keys;
}

function describe(gltf) {
	const json = gltf.parser.json;
	const nodes = new Map(); // glTF node index -> Object3D
	gltf.scene.traverse((o) => {
		const a = gltf.parser.associations.get(o);
		if (a && a.nodes !== undefined && !nodes.has(a.nodes)) nodes.set(a.nodes, o);
	});
	const keys = nodeKeys(json);
	const byKey = new Map();
	for (const [i, o] of nodes) byKey.set(keys[i], o);
	return { gltf, json, nodes, keys, byKey };
}

// Mesh objects keyed by their anchor -- the nearest glTF node at or above them whose key the other file also
// has (gltfpack moves a quantized mesh into a new child node) -- and their ordinal under it.
function meshesOf(D, other) {
	const meshes = new Map();
	const counts = new Map();
	D.gltf.scene.traverse((o) => {
		if (!o.isMesh) return;
		let anchor = null;
		for (let p = o; p && anchor === null; p = p.parent) {
			const a = D.gltf.parser.associations.get(p);
			if (a && a.nodes !== undefined && other.byKey.has(D.keys[a.nodes])) anchor = D.keys[a.nodes];
		}
		if (anchor === null) anchor = '(no common node)';
		const k = counts.get(anchor) || 0;
		counts.set(anchor, k + 1);
		meshes.set(`${anchor}/mesh${k}`, o);
	});
	return meshes;
}

function pairNodes(A, B) {
	const pairs = [];
	let unmatched = 0;
	for (const [i, o] of [...A.nodes].sort((x, y) => x[0] - y[0])) {
		const other = B.byKey.get(A.keys[i]);
		if (other) pairs.push({ name: A.keys[i], a: o, b: other });
		else unmatched++;
	}
	return { pairs, unmatched };
}

const v3 = new THREE.Vector3();

function vertexWorld(mesh, i, target) {
	mesh.getVertexPosition(i, target); // Mesh.js / SkinnedMesh.js: morphs, then skinning (mesh local space)
	return mesh.localToWorld(target);
}

function restPositions(mesh) {
	const n = mesh.geometry.attributes.position.count;
	const p = new Float64Array(3 * n);
	for (let i = 0; i < n; i++) {
		vertexWorld(mesh, i, v3);
		p[3 * i] = v3.x; p[3 * i + 1] = v3.y; p[3 * i + 2] = v3.z;
	}
	return p;
}

function sampleIndices(rest) {
	const n = rest.length / 3;
	const picks = new Set();
	if (n <= VERTEX_BUDGET) for (let i = 0; i < n; i++) picks.add(i);
	else for (let k = 0; k < VERTEX_BUDGET; k++) picks.add(Math.round((k * (n - 1)) / (VERTEX_BUDGET - 1)));
	for (let c = 0; c < 3; c++) {
		let lo = 0, hi = 0;
		for (let i = 1; i < n; i++) {
			if (rest[3 * i + c] < rest[3 * lo + c]) lo = i;
			if (rest[3 * i + c] > rest[3 * hi + c]) hi = i;
		}
		if (n) { picks.add(lo); picks.add(hi); }
	}
	return [...picks].sort((x, y) => x - y);
}

function pairVertices(restA, restB, picks) {
	const nA = restA.length / 3, nB = restB.length / 3;
	let size = 0;
	for (let c = 0; c < 3; c++) {
		let lo = Infinity, hi = -Infinity;
		for (let i = 0; i < nA; i++) { lo = Math.min(lo, restA[3 * i + c]); hi = Math.max(hi, restA[3 * i + c]); }
		size = Math.max(size, hi - lo);
	}
	if (nA === nB) {
		let same = true;
		for (let i = 0; i < restA.length && same; i++) same = Math.abs(restA[i] - restB[i]) <= 1e-6 * (size || 1);
		if (same) return { rule: 'index', map: picks.slice(), gap: 0 };
	}
	const map = [];
	let gap = 0;
	for (const i of picks) {
		const x = restA[3 * i], y = restA[3 * i + 1], z = restA[3 * i + 2];
		let best = -1, bestD = Infinity;
		for (let j = 0; j < nB; j++) {
			const dx = restB[3 * j] - x, dy = restB[3 * j + 1] - y, dz = restB[3 * j + 2] - z;
			const d = dx * dx + dy * dy + dz * dz;
			if (d < bestD || (d === bestD && j === i)) { bestD = d; best = j; }
		}
		map.push(best);
		gap = Math.max(gap, Math.sqrt(bestD));
	}
	return { rule: 'nearest rest position', map, gap };
}

function pairMeshes(A, B) {
	const pairs = [];
	let unmatched = 0;
	const rules = {};
	A.gltf.scene.updateMatrixWorld(true);
	B.gltf.scene.updateMatrixWorld(true);
	const meshesA = meshesOf(A, B), meshesB = meshesOf(B, A);
	for (const [key, ma] of meshesA) {
		const mb = meshesB.get(key);
		if (!mb) { unmatched++; continue; }
		const restA = restPositions(ma), restB = restPositions(mb);
		if (!restB.length || !restA.length) { unmatched++; continue; }
		const picks = sampleIndices(restA);
		const { rule, map, gap } = pairVertices(restA, restB, picks);
		rules[key] = { rule, vertices: picks.length, of: restA.length / 3, rest_gap: gap };
		pairs.push({ key, a: ma, b: mb, picks, map });
	}
	return { pairs, unmatched, rules };
}

function keyTimes(clip) {
	const s = new Set();
	for (const track of clip ? clip.tracks : []) for (const t of track.times) s.add(t);
	return s;
}

function clipTimes(clipA, clipB, fps) {
	const end = clipA ? clipA.duration : 0;
	const keys = [...new Set([...keyTimes(clipA), ...keyTimes(clipB)])].sort((x, y) => x - y);
	const all = new Set(keys);
	for (let i = 1; i < keys.length; i++) all.add(0.5 * (keys[i - 1] + keys[i]));
	for (let k = 0; k * (1 / fps) < end; k++) all.add(k / fps);
	all.add(end);
	all.add(0);
	const clamped = [...all].map((t) => Math.min(Math.max(t, 0), end)).sort((x, y) => x - y);
	return clamped.filter((t, i) => i === 0 || t !== clamped[i - 1]);
}

function player(scene, clip) {
	const mixer = new THREE.AnimationMixer(scene);
	const action = clip ? mixer.clipAction(clip) : null;
	if (action) {
		action.setLoop(THREE.LoopOnce, 1);
		action.clampWhenFinished = true;
		action.play();
	}
	return (t) => {
		if (action) {
			action.reset(); // a finished LoopOnce action is paused: un-pause it, time 0
			mixer.setTime(t);
		}
		scene.updateMatrixWorld(true);
	};
}

function animationName(json, k) {
	const a = (json.animations || [])[k];
	return a && typeof a.name === 'string' ? a.name : null;
}

function main() {
	return (async () => {
		const { files, fps } = parseArgs(process.argv.slice(2));
		const [ga, gb] = [await load(files[0]), await load(files[1])];
		const clips = [];
		let overall = 0;
		let matched = null;
		const count = Math.max(ga.animations.length, 1);
		for (let k = 0; k < count; k++) {
			// a fresh pairing per clip: the scenes are posed by the previous clip's mixer otherwise
			const A = describe(ga), B = describe(gb);
			const clipA = ga.animations[k] || null;
			const name = animationName(A.json, k);
			let kb = -1;
			if (name !== null) kb = (B.json.animations || []).findIndex((a) => a && a.name === name);
			if (kb < 0 && k < gb.animations.length) kb = k;
			const clipB = kb >= 0 ? gb.animations[kb] : null;
			const playA = player(ga.scene, clipA), playB = player(gb.scene, clipB);
			// the rest pose, for the vertex pairing: the loaded state, before any mixer ran
			const nodes = pairNodes(A, B);
			const meshes = pairMeshes(A, B);
			if (matched === null) {
				matched = {
					matched: { nodes: nodes.pairs.length, meshes: meshes.pairs.length },
					unmatched: { nodes: nodes.unmatched, meshes: meshes.unmatched },
					vertex_rules: meshes.rules,
				};
			}
			const times = clipTimes(clipA, clipB, fps);
			let worstNode = { distance: 0 }, worstVertex = { distance: 0 };
			const va = new THREE.Vector3(), vb = new THREE.Vector3();
			for (const t of times) {
				playA(t);
				playB(t);
				for (const p of nodes.pairs) {
					va.setFromMatrixPosition(p.a.matrixWorld);
					vb.setFromMatrixPosition(p.b.matrixWorld);
					const d = va.distanceTo(vb);
					if (d > worstNode.distance) worstNode = { kind: 'node', node: p.name, t, distance: d };
				}
				for (const p of meshes.pairs) {
					for (let s = 0; s < p.picks.length; s++) {
						vertexWorld(p.a, p.picks[s], va);
						vertexWorld(p.b, p.map[s], vb);
						const d = va.distanceTo(vb);
						if (d > worstVertex.distance) {
							worstVertex = { kind: 'vertex', mesh: p.key, vertex: p.picks[s], t, distance: d };
						}
					}
				}
			}
			const worst = worstVertex.distance > worstNode.distance ? worstVertex : worstNode;
			const maxd = Math.max(worstNode.distance, worstVertex.distance);
			overall = Math.max(overall, maxd);
			clips.push({
				name: name !== null ? name : clipA ? clipA.name : null,
				index: k,
				candidate: kb >= 0 ? kb : null,
				duration: clipA ? clipA.duration : 0,
				max_node_distance: worstNode.distance,
				max_vertex_distance: worstVertex.distance,
				max_distance: maxd,
				worst,
				times: times.length,
			});
		}
		out({ a: files[0], b: files[1], three: THREE.REVISION, fps, clips, max_distance: overall, ...matched });
	})();
}

main().catch((err) => {
	out({ error: String(err && err.stack ? err.stack : err) });
	process.exitCode = 1;
});
