// `npm pack` gives a tarball that a fresh Node project installs offline (no registry at all:
// the package has no dependencies) and uses; its declarations type-check a TypeScript user.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { python } from "./oracle.js";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const CORE = fileURLToPath(new URL("../../python/finscore/finscore_core.wasm", import.meta.url));
const TSC = path.join(PACKAGE, "node_modules", ".bin", "tsc");
const NO_REGISTRY = { ...process.env, npm_config_registry: "http://127.0.0.1:9/", npm_config_update_notifier: "false" };

function run(command, args, cwd) {
  const done = spawnSync(command, args, { cwd, env: NO_REGISTRY, encoding: "utf-8" });
  assert.equal(done.status, 0, `${command} ${args.join(" ")} failed:\n${done.stdout}\n${done.stderr}`);
  return done.stdout;
}

test("the packed tarball installs offline in a fresh project and runs there", () => {
  const scratch = mkdtempSync(path.join(tmpdir(), "finscore-pack-"));
  try {
    const packed = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", scratch], PACKAGE));
    const files = packed[0].files.map((file) => file.path).sort();
    assert.ok(files.includes("finscore_core.wasm") && files.includes("src/index.js") && files.includes("src/index.d.ts"), files);
    assert.ok(!files.some((file) => file.startsWith("test/") || file.startsWith("node_modules/")), files);
    const tarball = path.join(scratch, packed[0].filename);

    const project = path.join(scratch, "project");
    mkdirSync(project);
    writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "fresh", version: "1.0.0", private: true, type: "module" }));
    run("npm", ["install", tarball, "--offline", "--no-audit", "--no-fund", "--cache", path.join(scratch, "cache")], project);
    const installed = path.join(project, "node_modules", "finscore");
    assert.deepEqual(readFileSync(path.join(installed, "finscore_core.wasm")), readFileSync(CORE),
      "the tarball's module is not the one the Python package ships");
    assert.ok(!existsSync(path.join(project, "node_modules", "typescript")), "a dependency came along");

    writeFileSync(path.join(project, "use.mjs"), [
      'import { loadCore } from "finscore";',
      "const core = await loadCore();",
      'const [a, b] = core.readExecute([{ tokens: ["subtract(", "34.8", "1.2", ")", "divide(", "#0", "34.8", ")", "EOF"] },',
      '  { tokens: ["add(", "1e3", "1", ")", "EOF"] }]);',
      "console.log(JSON.stringify([core.abiVersion, a.valueHex, a.unroundedHex, b.statusName, b.invalid]));",
    ].join("\n"));
    const printed = JSON.parse(run(process.execPath, ["use.mjs"], project));
    const expected = python("import json\nv = (34.8 - 1.2) / 34.8\nprint(json.dumps([round(v, 5).hex(), v.hex()]))", null);
    assert.deepEqual(printed, [8, ...expected, "deferred", null]);

    // a TypeScript user of the installed package: its declarations accept the documented uses
    // and reject the misuses marked in usage.ts
    copyFileSync(new URL("./types/usage.ts", import.meta.url), path.join(project, "usage.ts"));
    writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "nodenext", moduleResolution: "nodenext",
        lib: ["es2022", "dom"], types: [] },
      files: ["usage.ts"],
    }));
    assert.ok(existsSync(TSC), `TypeScript is not installed: run \`npm ci\` in ${PACKAGE}`);
    run(TSC, ["-p", project], project);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
