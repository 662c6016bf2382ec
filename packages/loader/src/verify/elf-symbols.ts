/**
 * The dynamic symbol table of an ELF shared library, read from the file (the library is never loaded, so none
 * of its code runs): each symbol's name, whether it is defined here or needed from elsewhere, and its kind.
 */
import { readFileSync } from 'node:fs';

export interface ElfSymbol {
  readonly name: string;
  /** Defined in this library (false: it needs the symbol from another one). */
  readonly defined: boolean;
  readonly kind: 'function' | 'object' | 'other';
}

const SHT_DYNSYM = 11;
const STT_OBJECT = 1;
const STT_FUNC = 2;
const STT_GNU_IFUNC = 10;

/** The dynamic symbols of the library at `path`; throws an Error naming what is wrong with the file. */
export function dynamicSymbols(path: string): ElfSymbol[] {
  const buf = readFileSync(path);
  if (buf.length < 52 || buf.readUInt32BE(0) !== 0x7f454c46) throw new Error(`${path} is not an ELF file`);
  const wide = buf[4] === 2;
  const little = buf[5] === 1;
  if ((buf[4] !== 1 && !wide) || (buf[5] !== 1 && buf[5] !== 2))
    throw new Error(`${path}: unknown ELF class`);
  const u16 = (at: number) => (little ? buf.readUInt16LE(at) : buf.readUInt16BE(at));
  const u32 = (at: number) => (little ? buf.readUInt32LE(at) : buf.readUInt32BE(at));
  const addr = (at: number) =>
    wide ? Number(little ? buf.readBigUInt64LE(at) : buf.readBigUInt64BE(at)) : u32(at);
  const shoff = addr(wide ? 0x28 : 0x20);
  const shentsize = u16(wide ? 0x3a : 0x2e);
  const shnum = u16(wide ? 0x3c : 0x30);
  const section = (i: number) => {
    const at = shoff + i * shentsize;
    if (at + shentsize > buf.length) throw new Error(`${path}: truncated section headers`);
    return {
      type: u32(at + 4),
      offset: addr(at + (wide ? 0x18 : 0x10)),
      size: addr(at + (wide ? 0x20 : 0x14)),
      link: u32(at + (wide ? 0x28 : 0x18)),
      entsize: addr(at + (wide ? 0x38 : 0x24)),
    };
  };
  for (let i = 0; i < shnum; i++) {
    const dynsym = section(i);
    if (dynsym.type !== SHT_DYNSYM) continue;
    const strings = section(dynsym.link);
    const size = dynsym.entsize || (wide ? 24 : 16);
    const symbols: ElfSymbol[] = [];
    for (let at = dynsym.offset + size; at + size <= dynsym.offset + dynsym.size; at += size) {
      const nameAt = strings.offset + u32(at);
      const info = buf[at + (wide ? 4 : 12)] as number;
      const shndx = u16(at + (wide ? 6 : 14));
      const end = buf.indexOf(0, nameAt);
      const type = info & 0xf;
      symbols.push({
        name: buf.toString('latin1', nameAt, end < 0 ? nameAt : end),
        defined: shndx !== 0,
        kind:
          type === STT_FUNC || type === STT_GNU_IFUNC ? 'function' : type === STT_OBJECT ? 'object' : 'other',
      });
    }
    return symbols;
  }
  return [];
}
