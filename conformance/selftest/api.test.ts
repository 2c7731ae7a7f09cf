/**
 * runConformance from an implementer's own test runner, as README.md shows it: the examples are copied
 * out of the README as they are, into an empty folder outside the repository where the packed suite is
 * installed (with a copy of the self-test's implementation as `impl/`), and run there with node:test
 * and with vitest (this package's devDependency, linked in). They pass against the correct
 * implementation and fail, naming the rule, against one with a defect. The typings are checked by
 * compiling a consumer against the installed package.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { installPacked } from './pack.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.resolve(here, '..');
const require = createRequire(import.meta.url);

/** The code block of README.md that follows `<!-- example: NAME FILE -->`. */
function example(name: string): { file: string; code: string } {
  const readme = fs.readFileSync(path.join(pkg, 'README.md'), 'utf8');
  const match = readme.match(new RegExp(`<!-- example: ${name} (\\S+) -->\\n\`\`\`js\\n([^]*?)\\n\`\`\`\\n`));
  if (!match) throw new Error(`README.md has no example ${name}`);
  return { file: match[1] as string, code: `${match[2]}\n` };
}

async function run(
  command: string,
  args: string[],
  cwd: string,
): Promise<{ code: number | null; output: string }> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([n]) => !/^(CONFORMANCE_|GITHUB_)/.test(n)),
  );
  const child = spawn(command, args, {
    cwd,
    env: { ...env, FORCE_COLOR: '0', NO_COLOR: '1', CI: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, output };
}

describe('runConformance from node:test and vitest, as the README shows it', function () {
  this.timeout(600_000);
  let folder: string;
  const examples = { 'node-test': example('node-test'), vitest: example('vitest') };
  const vitestBin = path.join(path.dirname(require.resolve('vitest/package.json')), 'vitest.mjs');
  const runners: Record<keyof typeof examples, (file: string) => [string, string[]]> = {
    'node-test': (file) => [process.execPath, ['--test', '--test-reporter=spec', file]],
    vitest: (file) => [process.execPath, [vitestBin, 'run', '--root', folder, file]],
  };

  before(() => {
    folder = installPacked('conformance-api-');
    fs.cpSync(path.join(here, 'impl'), path.join(folder, 'impl'), { recursive: true });
    // vitest as the implementer's own devDependency: this package's, linked into their node_modules.
    fs.symlinkSync(
      path.dirname(require.resolve('vitest/package.json')),
      path.join(folder, 'node_modules/vitest'),
    );
    for (const { file, code } of Object.values(examples)) fs.writeFileSync(path.join(folder, file), code);
  });

  after(() => {
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  for (const name of Object.keys(examples) as Array<keyof typeof examples>) {
    it(`${name}: the example passes against a correct implementation`, async () => {
      const [command, args] = runners[name](examples[name].file);
      const result = await run(command, args, folder);
      console.log(
        result.output
          .trim()
          .split('\n')
          .filter((l) => /pass|fail|Test|✓|✔|tests? /i.test(l))
          .map((l) => `      ${l.trim()}`)
          .join('\n'),
      );
      expect(result.code, result.output).to.equal(0);
      const latest = JSON.parse(
        fs.readFileSync(path.join(folder, 'reports/conformance/latest/summary.json'), 'utf8'),
      );
      const passed = latest.rules.filter((r: { status: string }) => r.status === 'passed');
      expect(passed.map((r: { id: string }) => r.id).sort()).to.deep.equal([
        'USR-GET-01',
        'USR-PUT-01',
        'USR-PUT-03',
      ]);
    });

    it(`${name}: the same example fails against an implementation with a defect, naming the rule`, async () => {
      const file = `defective-${examples[name].file}`;
      const code = examples[name].code.replace('--data {data}', '--data {data} --defect put-overwrites');
      expect(code).to.include('--defect put-overwrites');
      fs.writeFileSync(path.join(folder, file), code);
      const [command, args] = runners[name](file);
      const result = await run(command, args, folder);
      expect(result.code, result.output).to.not.equal(0);
      expect(result.output).to.include('USR-PUT-03');
    });
  }

  it('the typings: a TypeScript consumer compiles against the installed package, and a wrong use does not', () => {
    fs.writeFileSync(
      path.join(folder, 'consumer.ts'),
      `import { EXIT, runConformance, type ConformanceResult, type Summary } from 'user-service-conformance';
export async function check(): Promise<Summary['verdict']> {
  const report: ConformanceResult = await runConformance({ baseUrl: 'http://127.0.0.1:8080', rules: ['USR-PUT-01'], expect: { 'USR-PUT-03': 'ticket 42' } });
  const code: 0 | 1 | 2 | 3 = report.exitCode;
  void code;
  void EXIT.couldNotRun;
  return report.rules[0]?.status === 'passed' ? report.verdict : 'incomplete';
}
// @ts-expect-error: a verdict is one of three strings
export const wrong: Summary['verdict'] = 'passes';
// @ts-expect-error: an unknown option
void runConformance({ url: 'http://127.0.0.1:8080' });
`,
    );
    const tsc = require.resolve('typescript/bin/tsc');
    const output = execFileSync(
      process.execPath,
      [
        tsc,
        '--noEmit',
        '--strict',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2023',
        '--types',
        'node',
        '--typeRoots',
        path.join(pkg, '..', 'node_modules/@types'),
        'consumer.ts',
      ],
      { cwd: folder, encoding: 'utf8' },
    );
    expect(output).to.equal('');
  });
});
