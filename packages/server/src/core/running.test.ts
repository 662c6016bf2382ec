// The scheduler's running handlers: start order kept through finishes out of order, ring rebuilds and growth.
import { describe, expect, it } from 'vitest';
import { Running } from './running.js';

interface Job {
  slot: number;
  name: number;
}

const job = (name: number): Job => ({ slot: -1, name });
const names = (running: Running<Job>) => running.inOrder().map((j) => j.name);

describe('Running', () => {
  it('lists jobs in start order after some finish out of order', () => {
    const running = new Running<Job>();
    const jobs = [0, 1, 2, 3, 4].map(job);
    for (const j of jobs) running.add(j);
    expect(running.remove(jobs[2]!)).toBe(true);
    expect(running.remove(jobs[0]!)).toBe(true);
    expect(names(running)).toEqual([1, 3, 4]);
    expect(running.inOrder()[0]?.name).toBe(1);
    expect(running.size).toBe(3);
    expect(jobs[2]!.slot).toBe(-1);
  });

  it('refuses to remove a job twice or one it never ran', () => {
    const running = new Running<Job>();
    const a = job(1);
    running.add(a);
    expect(running.remove(a)).toBe(true);
    expect(running.remove(a)).toBe(false);
    expect(running.remove(job(2))).toBe(false);
    expect(running.size).toBe(0);
  });

  it('keeps order while one long job stays at the head and thousands pass behind it', () => {
    const running = new Running<Job>();
    const long = job(-1);
    running.add(long);
    const window: Job[] = [];
    for (let i = 0; i < 50_000; i++) {
      const j = job(i);
      running.add(j);
      window.push(j);
      if (window.length > 8) running.remove(window.shift()!);
    }
    expect(names(running)).toEqual([-1, ...window.map((j) => j.name)]);
    expect(running.inOrder()[0]).toBe(long);
    for (const j of window) expect(running.remove(j)).toBe(true);
    expect(running.remove(long)).toBe(true);
    expect(running.size).toBe(0);
  });

  it('grows past its first size with every job still listed in order', () => {
    const running = new Running<Job>();
    const jobs = Array.from({ length: 1000 }, (_, i) => job(i));
    for (const j of jobs) running.add(j);
    expect(names(running)).toEqual(jobs.map((j) => j.name));
    for (const j of jobs.filter((j) => j.name % 3 === 0)) running.remove(j);
    expect(names(running)).toEqual(jobs.filter((j) => j.name % 3 !== 0).map((j) => j.name));
  });
});
