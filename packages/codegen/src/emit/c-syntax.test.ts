// Tests of C spelling of types, declarators, parameter lists and declarations.
import { describe, expect, it } from 'vitest';
import type { AbiFunction, AbiType } from '../model/types.js';
import { cDeclarator, cFunctionDeclaration, cParams } from './c-syntax.js';

const doc = { summary: '', body: [], params: [], sections: [] };
const ccp = { kind: 'builtin', spelling: 'const char*' } as const;

describe('C syntax', () => {
  it('writes an empty parameter list as void', () => {
    expect(cParams([])).toBe('void');
  });

  it('writes function-pointer members with their parameters', () => {
    const type: AbiType = {
      kind: 'function-pointer',
      returns: { kind: 'builtin', spelling: 'char*' },
      params: [
        { name: 'q', type: ccp },
        { name: 'n', type: { kind: 'builtin', spelling: 'int' } },
      ],
    };
    expect(cDeclarator(type, 'search')).toBe('char* (*search)(const char* q, int n)');
  });

  it('puts the export macro on declarations and wraps long ones with aligned parameters', () => {
    const short: AbiFunction = { kind: 'function', name: 'f', returns: ccp, params: [], doc };
    expect(cFunctionDeclaration(short, 'EXP')).toBe('EXP const char* f(void);');
    const long: AbiFunction = {
      kind: 'function',
      name: 'a_rather_long_function_name_for_wrapping',
      returns: ccp,
      params: ['first_parameter', 'second_parameter', 'third_parameter'].map((name) => ({ name, type: ccp })),
      doc,
    };
    const lines = cFunctionDeclaration(long, 'EXP').split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(
      'EXP const char* a_rather_long_function_name_for_wrapping(const char* first_parameter,',
    );
    expect(lines[2]!.indexOf('const char* third')).toBe(lines[0]!.indexOf('const char* first'));
    expect(lines[2]!.endsWith(');')).toBe(true);
  });
});
