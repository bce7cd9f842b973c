// Copy the core the Python package ships (python/finscore/finscore_core.wasm) into this
// package, so that the tarball carries the very same bytes. Run by `npm pack` (prepack)
// and `npm test` (pretest).
import { copyFile, mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const source = new URL("../../python/finscore/finscore_core.wasm", import.meta.url);
const target = new URL("../finscore_core.wasm", import.meta.url);
await mkdir(new URL("..", target), { recursive: true });
await copyFile(source, target);
console.error(`copied ${fileURLToPath(source)} -> ${fileURLToPath(target)}`);
