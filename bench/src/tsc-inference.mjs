// What typed tool handlers cost `tsc`: a generated 50-tool server (25 JSON Schema literals, 25 zod 4
// schemas, every handler reading its arguments) compiled with inference, against the same server with
// each schema cast to plain JsonSchema (no inference). Prints tsc's own figures and its CPU time,
// medians of N runs.
// Usage: node src/tsc-inference.mjs [runs]   (needs the server built: pnpm --filter @entropic-mcp/server build)

import { rmSync } from 'node:fs';
import { consumerProject, runTsc } from '../../packages/server/test/support/consumer-tsc.mjs';

const TOOLS = 50;
const runs = Number(process.argv[2] ?? 3);

function jsonTool(i, infer) {
  const schema = `{
      type: 'object',
      properties: {
        id: { type: 'integer' },
        name: { type: 'string' },
        mode: { enum: ['fast', 'safe', 'm${i}'] },
        tags: { type: 'array', items: { type: 'string' } },
        limits: { type: 'object', properties: { max: { type: 'number' }, min: { type: 'number' } }, required: ['max'] },
      },
      required: ['id', 'name'],
      additionalProperties: false,
    }`;
  const out = `{ type: 'object', properties: { total: { type: 'number' } }, required: ['total'] }`;
  const cast = infer ? '' : ' as JsonSchema';
  return `server.addTool(
  { name: 'json_${i}', inputSchema: ${schema}${cast}, outputSchema: ${out}${cast} },
  (args) => ({ content: [text(String(args.name) + String(args.mode))], structuredContent: { total: Number(args.id) + Number((args.limits as { max?: number } | undefined)?.max ?? 0) + (args.tags as string[] | undefined ?? []).length } }),
);`;
}

function zodTool(i, infer) {
  const schema = `z.object({
      id: z.number().int(),
      name: z.string().min(1),
      mode: z.enum(['fast', 'safe', 'z${i}']).default('fast'),
      tags: z.array(z.string()).optional(),
      limits: z.object({ max: z.number(), min: z.number().optional() }).optional(),
    })`;
  const out = `z.object({ total: z.number() })`;
  const cast = infer ? '' : ' as unknown as JsonSchema';
  return `server.addTool(
  { name: 'zod_${i}', inputSchema: ${schema}${cast}, outputSchema: ${out}${cast} },
  (args) => ({ content: [text(String(args.name) + String(args.mode))], structuredContent: { total: Number(args.id) + Number((args.limits as { max?: number } | undefined)?.max ?? 0) + (args.tags as string[] | undefined ?? []).length } }),
);`;
}

function source(infer) {
  const tools = [];
  const only = process.env.ONLY; // json or zod: every tool of that kind
  for (let i = 0; i < TOOLS; i++) {
    const json = only === undefined ? i % 2 === 0 : only === 'json';
    tools.push(json ? jsonTool(i, infer) : zodTool(i, infer));
  }
  return `import { type JsonSchema, McpServer, text } from '@entropic-mcp/server';
import * as z from 'zod';
const server = new McpServer({ name: 'fifty', version: '1.0.0' });
${tools.join('\n')}
export { server };
`;
}

/** tsc --extendedDiagnostics figures of one run. */
function measure(infer) {
  const dir = consumerProject({ 'server.ts': source(infer) });
  const result = runTsc(dir, ['--extendedDiagnostics']);
  rmSync(dir, { recursive: true, force: true });
  if (result.code !== 0) throw new Error(`tsc failed (${infer ? 'inferred' : 'plain'}):\n${result.output}`);
  const figure = (label) => Number(new RegExp(`^${label}:\\s+([\\d.]+)`, 'm').exec(result.output)?.[1]);
  return {
    check: figure('Check time'),
    total: figure('Total time'),
    types: figure('Types'),
    wall: result.wallMs / 1000,
    cpu: result.cpuMs / 1000,
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = {};
for (const infer of [false, true]) {
  const samples = [];
  for (let r = 0; r < runs; r++) samples.push(measure(infer));
  rows[infer ? 'inferred' : 'plain'] = Object.fromEntries(
    ['check', 'total', 'types', 'wall', 'cpu'].map((k) => [k, median(samples.map((s) => s[k]))]),
  );
}
const { plain, inferred } = rows;
console.log(
  `tsc --strict on a ${TOOLS}-tool server (25 JSON Schema literals + 25 zod 4), median of ${runs} runs`,
);
console.log('variant    check s  total s  wall s   cpu s    types');
for (const [name, r] of Object.entries(rows)) {
  console.log(
    `${name.padEnd(9)}  ${r.check.toFixed(2).padStart(7)}  ${r.total.toFixed(2).padStart(7)}  ${r.wall.toFixed(2).padStart(6)}  ${r.cpu.toFixed(2).padStart(6)}  ${String(r.types).padStart(7)}`,
  );
}
console.log(
  `inference cost: +${(inferred.cpu - plain.cpu).toFixed(2)} s of tsc CPU time (${(inferred.cpu / plain.cpu).toFixed(2)}x), ` +
    `+${(inferred.check - plain.check).toFixed(2)} s check time, +${inferred.types - plain.types} types ` +
    '(wall-clock figures swell on a loaded machine; CPU time does not)',
);
