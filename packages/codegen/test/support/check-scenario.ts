// Builds gate scenarios in temporary git repositories: a copy of the abi-headers definitions and the
// changesets configuration, everything else generated from them, committed on `main`, then edited
// on a branch the way a developer would.

import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { referencePath, updateReference } from '../../src/abigail/reference.js';
import { abigailAvailable } from '../../src/abigail/tools.js';
import { type CheckOptions, runCheck } from '../../src/check/run.js';
import type { CheckReport } from '../../src/check/types.js';
import { generateAll } from '../../src/generate.js';
import { parseLock, renderLock } from '../../src/lock/lock-file.js';
import { readAbiModel } from '../../src/model/read-model.js';

export const WORKSPACE = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const ABI_PKG = 'packages/abi-headers';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export class Scenario {
  readonly abiRoot: string;

  private constructor(readonly dir: string) {
    this.abiRoot = join(dir, ABI_PKG);
  }

  /**
   * A copy of `template` (made by `Scenario.template()`), checked out on a new branch `change`, or left on
   * `main` with `branch: null`.
   */
  static from(template: string, branch: string | null = 'change'): Scenario {
    const dir = mkdtempSync(join(tmpdir(), 'abi-gate-'));
    cpSync(template, dir, { recursive: true });
    if (branch !== null) git(dir, 'checkout', '-q', '-b', branch);
    return new Scenario(dir);
  }

  /** The base repository: the workspace's definitions, generated outputs, lock and reference on `main`. */
  static template(): string {
    const dir = mkdtempSync(join(tmpdir(), 'abi-gate-template-'));
    const s = new Scenario(dir);
    mkdirSync(join(dir, '.changeset'), { recursive: true });
    cpSync(join(WORKSPACE, '.changeset/config.json'), join(dir, '.changeset/config.json'));
    cpSync(join(WORKSPACE, ABI_PKG, 'src/abi'), join(s.abiRoot, 'src/abi'), { recursive: true });
    cpSync(join(WORKSPACE, ABI_PKG, 'package.json'), join(s.abiRoot, 'package.json'));
    writeFileSync(join(dir, 'package.json'), '{ "name": "abi-gate-scenario", "private": true }\n');
    writeFileSync(join(dir, 'pnpm-workspace.yaml'), 'packages:\n  - packages/*\n');
    // The scenarios start at abi-headers 0.1.0 with no release record, whatever the workspace has released.
    s.setVersion('0.1.0');
    s.regenerate();
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'config', 'user.email', 'gate@example.invalid');
    git(dir, 'config', 'user.name', 'Gate Scenario');
    git(dir, 'config', 'commit.gpgsign', 'false');
    s.commit('base');
    return dir;
  }

  file(rel: string): string {
    return join(this.abiRoot, rel);
  }

  read(rel: string): string {
    return readFileSync(this.file(rel), 'utf8');
  }

  write(rel: string, text: string): this {
    writeFileSync(this.file(rel), text);
    return this;
  }

  /** Replaces one exact occurrence of `from` in a file below the package (fails loudly if absent). */
  edit(rel: string, from: string | RegExp, to: string): this {
    const text = this.read(rel);
    const next = text.replace(from, to);
    if (next === text) throw new Error(`scenario: ${String(from)} not found in ${rel}`);
    return this.write(rel, next);
  }

  /** What a developer runs after editing definitions: generate, then lock and abi-dump --update. */
  regenerate(opts: { headers?: boolean; lock?: boolean; reference?: boolean } = {}): this {
    const model = readAbiModel({ definitionsDir: this.file('src/abi') });
    if (opts.headers !== false) generateAll({ model, out: this.abiRoot });
    if (opts.lock !== false) {
      const path = this.file('abi.lock.json');
      const previous = existsSync(path) ? parseLock(readFileSync(path, 'utf8')) : undefined;
      writeFileSync(path, renderLock(model, previous));
    }
    if (opts.reference !== false && abigailAvailable()) {
      updateReference(this.file('include'), referencePath(this.abiRoot));
    }
    return this;
  }

  bumpApiVersion(to: number): this {
    return this.edit(
      'src/abi/mcp_server.ts',
      /ENTROPIC_MCP_PLUGIN_API_VERSION: \d+;/,
      `ENTROPIC_MCP_PLUGIN_API_VERSION: ${to};`,
    );
  }

  /** Sets the version of @entropic-mcp/abi-headers, as `changeset version` does in a release. */
  setVersion(version: string): this {
    const text = this.read('package.json');
    if (!/"version": "[^"]+"/.test(text)) throw new Error('scenario: package.json has no version');
    return this.write('package.json', text.replace(/"version": "[^"]+"/, `"version": "${version}"`));
  }

  changeset(name: string, bump: 'major' | 'minor' | 'patch', pkg = '@entropic-mcp/abi-headers'): this {
    writeFileSync(join(this.dir, '.changeset', `${name}.md`), `---\n"${pkg}": ${bump}\n---\n\n${name}\n`);
    return this;
  }

  commit(message: string): this {
    git(this.dir, 'add', '-A');
    git(this.dir, 'commit', '-q', '--allow-empty', '-m', message);
    return this;
  }

  check(opts: Partial<CheckOptions> = {}): Promise<CheckReport> {
    return runCheck({ repo: this.dir, ...opts });
  }

  /** Runs git in the scenario repository; returns its standard output. */
  git(...args: string[]): string {
    return git(this.dir, ...args);
  }

  static fromDir(dir: string): Scenario {
    return new Scenario(dir);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The rule ids a report failed on. */
export function rules(report: CheckReport): string[] {
  return report.findings.map((f) => f.rule);
}

/** All messages of a report, joined (for assertions on wording). */
export function messages(report: CheckReport): string {
  return report.findings.map((f) => f.message).join('\n');
}

/**
 * For one test file: a template repository made once before its tests, and a function that copies it into
 * a fresh scenario; every scenario and the template are removed after the file's tests.
 */
export function scenariosForThisFile(): () => Scenario {
  let template: string;
  const made: Scenario[] = [];
  beforeAll(() => {
    template = Scenario.template();
  });
  afterAll(() => {
    for (const s of made) s.remove();
    Scenario.fromDir(template).remove();
  });
  return () => {
    const s = Scenario.from(template);
    made.push(s);
    return s;
  };
}
