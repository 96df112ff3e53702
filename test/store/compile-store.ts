import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";

const repoRoot = resolve(import.meta.dirname, "../..");

/**
 * Transpile src/store/ on its own into `outDir`, so child processes can run the real store code
 * without depending on the whole project building (other folders may be mid-edit).
 */
export function compileStore(outDir: string): string {
  mkdirSync(outDir, { recursive: true });
  const srcDir = join(repoRoot, "src", "store");
  for (const name of readdirSync(srcDir).filter((file) => file.endsWith(".ts"))) {
    const { outputText } = ts.transpileModule(readFileSync(join(srcDir, name), "utf8"), {
      compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
      fileName: name,
    });
    writeFileSync(join(outDir, name.replace(/\.ts$/, ".js")), outputText);
  }
  // Bare imports (xdg-basedir) resolve through the project's node_modules.
  writeFileSync(join(outDir, "package.json"), '{"type":"module"}\n');
  symlinkSync(join(repoRoot, "node_modules"), join(outDir, "node_modules"));
  return outDir;
}
