/**
 * RFC 6570 URI templates, for matching request URIs against resource templates. Supports the
 * expression operators of levels 1-4 that name variables ({var}, {+var}, {#var}, {.var}, {/var},
 * {;var}, {?a,b}, {&a}) and the explode modifier `*`; prefix modifiers (`:n`) are accepted and ignored.
 */

export type UriVariables = Record<string, string | string[]>;

interface Expression {
  op: string;
  names: { name: string; explode: boolean }[];
}

type Part = string | Expression;

const OPERATORS = '+#./;?&';

function parse(template: string): Part[] {
  const parts: Part[] = [];
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    if (open === -1) {
      parts.push(template.slice(i));
      break;
    }
    if (open > i) parts.push(template.slice(i, open));
    const close = template.indexOf('}', open);
    if (close === -1) throw new TypeError(`Unclosed expression in URI template "${template}"`);
    let body = template.slice(open + 1, close);
    let op = '';
    if (body.length > 0 && OPERATORS.includes(body[0] as string)) {
      op = body[0] as string;
      body = body.slice(1);
    }
    const names = body.split(',').map((spec) => {
      const explode = spec.endsWith('*');
      const name = (explode ? spec.slice(0, -1) : spec).split(':')[0] as string;
      if (!/^[A-Za-z0-9_.%]+$/.test(name)) throw new TypeError(`Bad variable "${spec}" in "${template}"`);
      return { name, explode };
    });
    parts.push({ op, names });
    i = close + 1;
  }
  return parts;
}

function escapeRegex(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export class UriTemplate {
  readonly template: string;
  readonly variableNames: readonly string[];
  private readonly regex: RegExp;
  private readonly slots: { name: string; op: string; explode: boolean }[] = [];

  constructor(template: string) {
    this.template = template;
    const parts = parse(template);
    let source = '^';
    for (const part of parts) {
      if (typeof part === 'string') {
        source += escapeRegex(part);
        continue;
      }
      const { op } = part;
      if (op === '?' || op === '&') {
        // Query parameters: match the whole query component and pick names out of it afterwards.
        source += `(?:[?&](.*))?`;
        this.slots.push({ name: part.names.map((n) => n.name).join(','), op: '?', explode: false });
        continue;
      }
      const prefix = op === '+' || op === '' ? '' : op;
      const body = op === '+' || op === '#' ? '.*?' : '[^/?#,]*?';
      for (let k = 0; k < part.names.length; k++) {
        const v = part.names[k] as { name: string; explode: boolean };
        const lead = k === 0 ? prefix : op === '' || op === '+' || op === '#' ? ',' : prefix;
        const named = op === ';' ? `${escapeRegex(v.name)}=?` : '';
        const value = v.explode
          ? `(?:${body}(?:${escapeRegex(op === '' || op === '+' ? ',' : op)}${body})*)`
          : body;
        source += `${escapeRegex(lead)}${named}(${value})`;
        this.slots.push({ name: v.name, op, explode: v.explode });
      }
    }
    this.regex = new RegExp(`${source}$`);
    this.variableNames = this.slots.flatMap((s) => s.name.split(','));
  }

  /** The variables of `uri` when it matches this template, otherwise undefined. */
  match(uri: string): UriVariables | undefined {
    const m = this.regex.exec(uri);
    if (!m) return undefined;
    const vars: UriVariables = {};
    for (let i = 0; i < this.slots.length; i++) {
      const slot = this.slots[i] as { name: string; op: string; explode: boolean };
      const raw = m[i + 1];
      if (slot.op === '?') {
        if (raw === undefined) continue;
        const wanted = slot.name.split(',');
        for (const pair of raw.split('&')) {
          const eq = pair.indexOf('=');
          const key = decode(eq === -1 ? pair : pair.slice(0, eq));
          if (wanted.includes(key)) vars[key] = decode(eq === -1 ? '' : pair.slice(eq + 1));
        }
        continue;
      }
      if (raw === undefined) continue;
      if (!slot.explode && slot.op !== '+' && slot.op !== '#' && raw === '' && slot.op !== '') continue;
      const sep = slot.op === '' || slot.op === '+' || slot.op === '#' ? ',' : slot.op;
      vars[slot.name] = slot.explode ? raw.split(sep).map(decode) : decode(raw);
    }
    return vars;
  }
}
