// Rules comparing the work tree with the base: a locked-ABI change needs an API version bump and a
// major release of @entropic-mcp/abi-headers; a bump needs a change; an additive change needs a minor release.
import { VERSION_MACRO } from '../model/read-model.js';
import { describeChanges } from './changes.js';
import { ABI_HEADERS_PACKAGE, atLeast, type BumpType, type PackageRelease, versionBump } from './release.js';
import type { AbiSide } from './state.js';
import { renderSteps } from './steps.js';
import type { Finding } from './types.js';

export interface VersioningInput {
  base: AbiSide;
  head: AbiSide;
  /** Names the base in messages, e.g. "origin/main (1a2b3c4d)". */
  baseLabel: string;
  /** The definition file that holds the version macro, as the developer knows it (repository-relative). */
  versionFile: string;
  /** Reads the release plan on demand (it is needed only when the ABI changed). */
  release: () => Promise<PackageRelease>;
}

async function releaseBump(input: VersioningInput): Promise<{ type: BumpType; how: string }> {
  const byVersion = versionBump(input.base.packageVersion ?? '0.0.0', input.head.packageVersion ?? '0.0.0');
  const plan = await input.release();
  const planned = plan.changesets.length
    ? `pending changesets for ${ABI_HEADERS_PACKAGE}: ${plan.changesets.map((c) => `${c.id} (${c.type})`).join(', ')}`
    : `no pending changeset names ${ABI_HEADERS_PACKAGE}`;
  const how = `${planned}; package version ${input.base.packageVersion} → ${input.head.packageVersion}`;
  return { type: atLeast(plan.type, byVersion) ? plan.type : byVersion, how };
}

export async function checkVersioning(input: VersioningInput): Promise<Finding[]> {
  const { base, head, baseLabel } = input;
  const vBase = base.apiVersion;
  const vHead = head.apiVersion;
  const macro = VERSION_MACRO;
  const source = input.versionFile;
  const where = `${macro} in ${source}`;
  const changes = describeChanges(base.locked, head.locked);
  const list = changes.lines.join('\n');

  if (vHead < vBase) {
    return [
      {
        rule: 'version-decreased',
        message: `${macro} went down from ${vBase} (at ${baseLabel}) to ${vHead}. API versions only ever increase.`,
      },
    ];
  }
  if (vHead === vBase) {
    if (changes.kind === 'same') return [];
    if (changes.kind === 'breaking') {
      return [
        {
          rule: 'version-not-bumped',
          message:
            `The locked plugin ABI changed since ${baseLabel} but ${macro} is still ${vHead}:\n${list}\n` +
            `Plugins written for API version ${vHead} would stop compiling, or load and misbehave. Either undo the ` +
            `change, or version it (${where} becomes ${vHead + 1}):\n${renderSteps('breaking', '    ')}`,
        },
      ];
    }
    const r = await releaseBump(input);
    if (atLeast(r.type, 'minor')) return [];
    return [
      {
        rule: 'release-not-minor',
        message:
          `The plugin ABI grew additively since ${baseLabel} (no API version bump needed):\n${list}\n` +
          `but the next release of ${ABI_HEADERS_PACKAGE} is ${r.type === 'none' ? 'not planned' : `only a ${r.type}`} (${r.how}). ` +
          `Add a minor changeset for ${ABI_HEADERS_PACKAGE}. The steps for an additive change:\n${renderSteps('additive', '    ')}`,
      },
    ];
  }
  const findings: Finding[] = [];
  if (changes.kind === 'same') {
    findings.push({
      rule: 'bump-without-change',
      message:
        `${macro} was bumped from ${vBase} to ${vHead} since ${baseLabel}, but the locked ABI is unchanged ` +
        `(same fingerprint). A bump forces every plugin to be rebuilt; revert it in ${source} ` +
        `unless a declaration, layout or enumerator really changed.`,
    });
  }
  const r = await releaseBump(input);
  if (r.type !== 'major') {
    findings.push({
      rule: 'release-not-major',
      message:
        `${macro} was bumped from ${vBase} to ${vHead} since ${baseLabel}, but the next release of ` +
        `${ABI_HEADERS_PACKAGE} is ${r.type === 'none' ? 'not planned' : `only a ${r.type}`} (${r.how}). ` +
        `A new API version is a breaking release: add a major changeset for ${ABI_HEADERS_PACKAGE} (\`pnpm changeset\`).`,
    });
  }
  return findings;
}
