// The sandbox options are checked before any host runs, each refusal naming the field.
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { checkSandboxOptions } from './options.js';

const refused = (value: unknown) => () => checkSandboxOptions(value);

describe('checkSandboxOptions', () => {
  it('reads {} as the strictest sandbox, required, enforcing', () => {
    expect(checkSandboxOptions({})).toEqual({
      read: [],
      write: [],
      connect: [],
      bind: [],
      udp: false,
      exec: false,
      processes: undefined,
      memoryMb: undefined,
      cpuSeconds: undefined,
      openFiles: undefined,
      required: true,
      audit: false,
    });
  });

  it('refuses what is not an object, and unknown keys with the nearest known one', () => {
    expect(refused(true)).toThrow('options.sandbox must be an object (use {} for the strictest sandbox)');
    expect(refused({ reads: ['/'] })).toThrow(
      'options.sandbox has an unknown key "reads"; did you mean "read"?',
    );
    expect(refused({ memory_mb: 5 })).toThrow('unknown key "memory_mb"');
  });

  it('refuses relative, missing and multi-line paths', () => {
    expect(refused({ read: ['etc'] })).toThrow('options.sandbox.read[0] must be absolute, got "etc"');
    expect(refused({ write: ['/no/such/folder'] })).toThrow(
      'options.sandbox.write[0] /no/such/folder does not exist',
    );
    expect(refused({ read: [`${tmpdir()}\nx`] })).toThrow('must not contain a NUL or a newline');
    expect(refused({ read: '/etc' })).toThrow('options.sandbox.read must be a list of absolute paths');
  });

  it('takes ports, not addresses, and says so', () => {
    expect(checkSandboxOptions({ connect: [5432], bind: [0] }).connect).toEqual([5432]);
    expect(refused({ connect: ['db:5432'] })).toThrow(
      'options.sandbox.connect[0] must be a TCP port number 0-65535, got "db:5432" (the sandbox filters TCP by port, not by address: write 5432)',
    );
    expect(refused({ bind: [70000] })).toThrow('options.sandbox.bind[0] must be a TCP port number');
  });

  it('refuses counts out of range and flags that are not booleans', () => {
    expect(refused({ processes: -1 })).toThrow('options.sandbox.processes must be a whole number from 0');
    expect(refused({ memoryMb: 0 })).toThrow('options.sandbox.memoryMb must be a whole number from 1');
    expect(refused({ openFiles: 1.5 })).toThrow('options.sandbox.openFiles');
    expect(refused({ required: 'no' })).toThrow('options.sandbox.required must be true or false, got "no"');
  });
});
