import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Roundkeeper is MIT-licensed: the LICENSE file at the root, and the same licence named in the root
// package.json, every workspace's and the lockfile's record of them.

const repo = resolve(import.meta.dirname, '..');
const read = (path: string) => readFileSync(join(repo, path), 'utf8');

describe('the licence', () => {
  it('LICENSE is the MIT licence, copyright the Roundkeeper contributors', () => {
    const text = read('LICENSE');
    expect(text.split('\n')[0]).toBe('MIT License');
    expect(text).toMatch(/^Copyright \(c\) \d{4} Roundkeeper contributors$/m);
    expect(text).toContain('Permission is hereby granted, free of charge, to any person obtaining a copy');
    expect(text).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND');
  });

  it('every package.json says "license": "MIT", the root and each workspace, and the lockfile agrees', () => {
    const root = JSON.parse(read('package.json')) as { license?: string; workspaces: string[] };
    expect(root.workspaces.length).toBeGreaterThanOrEqual(5);
    const lock = JSON.parse(read('package-lock.json')) as {
      packages: Record<string, { license?: string }>;
    };
    const missing: string[] = [];
    for (const where of ['', ...root.workspaces]) {
      const path = join(where, 'package.json');
      expect(existsSync(join(repo, path)), path).toBe(true);
      const pkg = JSON.parse(read(path)) as { license?: string };
      if (pkg.license !== 'MIT') missing.push(`${path}: ${pkg.license ?? 'no license field'}`);
      if (lock.packages[where]?.license !== 'MIT') missing.push(`package-lock.json "${where}": not MIT`);
    }
    expect(missing).toEqual([]);
  });
});
