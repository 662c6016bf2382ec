// Summarise a V8 .cpuprofile: share of time per area, the functions with the most self time, and
// the functions of our server with the most inclusive time (each sample counted once per function).
import { readFileSync } from 'node:fs';
import { rootDir } from './targets.mjs';

function shortUrl(url) {
  if (!url) return '';
  return url
    .replace('file://', '')
    .replace(rootDir, '')
    .replace(/.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, '');
}

function keyOf(frame) {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return name;
  return `${name} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
}

function areaOf(frame) {
  const url = frame.url ?? '';
  if (!url) return frame.functionName.startsWith('(') ? frame.functionName : 'V8 builtins / native';
  if (url.startsWith('node:')) return 'Node core (node:*)';
  if (url.includes('packages/server/')) return '@entropic-mcp/server';
  if (url.includes('packages/loader/')) return '@entropic-mcp/loader';
  if (url.includes('packages/serve/')) return '@entropic-mcp/serve';
  if (url.includes('/node_modules/')) return `dependency ${shortUrl(url).split('/').slice(0, 2).join('/')}`;
  if (url.includes('/bench/')) return 'bench server program';
  return 'other';
}

export function summariseProfile(path, { top = 25 } = {}) {
  const profile = JSON.parse(readFileSync(path, 'utf8'));
  const byId = new Map();
  const parent = new Map();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const self = new Map();
  const inclusive = new Map();
  const areas = new Map();
  let total = 0;
  const add = (map, key, dt) => map.set(key, (map.get(key) ?? 0) + dt);
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0;
    const node = byId.get(profile.samples[i]);
    if (!node || dt <= 0) continue;
    total += dt;
    add(self, keyOf(node.callFrame), dt);
    add(areas, areaOf(node.callFrame), dt);
    const seen = new Set();
    for (let id = node.id; id !== undefined; id = parent.get(id)) {
      const key = keyOf(byId.get(id).callFrame);
      if (seen.has(key)) continue;
      seen.add(key);
      add(inclusive, key, dt);
    }
  }
  const idle = self.get('(idle)') ?? 0;
  const busy = total - idle;
  const pct = (dt) => `${((dt / busy) * 100).toFixed(1)}%`;
  const sorted = (map, filter = () => true) =>
    [...map.entries()].filter(([key]) => key !== '(idle)' && filter(key)).sort((a, b) => b[1] - a[1]);
  const lines = [
    `profile ${shortUrl(path)}: ${(total / 1e6).toFixed(2)} s sampled, ${(busy / 1e6).toFixed(2)} s busy (percentages are of busy time)`,
    '',
    'time by area (self):',
    ...sorted(areas).map(([k, dt]) => `  ${pct(dt).padStart(6)}  ${k}`),
    '',
    `top ${top} functions by self time:`,
    ...sorted(self)
      .slice(0, top)
      .map(([k, dt]) => `  ${pct(dt).padStart(6)}  ${k}`),
    '',
    `top ${top} @entropic-mcp/server functions by inclusive time:`,
    ...sorted(inclusive, (k) => k.includes('packages/server/'))
      .slice(0, top)
      .map(([k, dt]) => `  ${pct(dt).padStart(6)}  ${k}`),
  ];
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const path of process.argv.slice(2)) console.log(`${summariseProfile(path)}\n`);
}
