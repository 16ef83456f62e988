import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BASELINE_WEBASSEMBLY_FLAG } from './webAssemblyTier';

// In a child process (the flag is the whole process's), with V8's test natives to ask which compiler
// made a function: a hot WebAssembly function is re-compiled by TurboFan, unless the flag holds it.
function tierOfHotFunction(flag?: string): string {
  const script = `
    const v8 = require('node:v8');
    ${flag ? `v8.setFlagsFromString(${JSON.stringify(flag)});` : ''}
    // (module (func (export "add") (param i32 i32) (result i32) local.get 0 local.get 1 i32.add))
    const bytes = new Uint8Array([0,97,115,109,1,0,0,0,1,7,1,96,2,127,127,1,127,3,2,1,0,7,7,1,3,97,100,100,0,0,10,9,1,7,0,32,0,32,1,106,11]);
    const { add } = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports;
    let sum = 0;
    const start = Date.now();
    while (Date.now() - start < 400) for (let i = 0; i < 100000; i++) sum = add(sum, i) | 0;
    process.stdout.write(%IsTurboFanFunction(add) ? 'turbofan' : %IsLiftoffFunction(add) ? 'liftoff' : 'other');
  `;
  const run = spawnSync(process.execPath, ['--allow-natives-syntax', '-e', script], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

describe('keepWebAssemblyOnBaseline', () => {
  it('is a flag V8 takes at run time: a hot function stays on Liftoff, where without it TurboFan takes over', () => {
    expect(tierOfHotFunction()).toBe('turbofan');
    expect(tierOfHotFunction(BASELINE_WEBASSEMBLY_FLAG)).toBe('liftoff');
  });
});
