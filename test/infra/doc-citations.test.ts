/**
 * The repository stands alone: comments, test titles and docs cite its own docs/, never a
 * numbered section (a section sign and a number) of a document kept outside it, and every
 * docs/ page and heading they cite exists, so a reader of a clone can follow each citation.
 */
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Folders of things built, installed or generated, not written. */
const SKIPPED_DIRS = new Set([
  'node_modules',
  'dist',
  '.git',
  'data',
  'coverage',
  'test-results',
  'migrations',
]);
const TEXT_FILE = /\.(ts|tsx|mts|mjs|cjs|js|md|css|html|json|jsonc|ya?ml)$|^Dockerfile$/;

/** Every text file we write, as a path from the repository's root. */
function sourceFiles(dir = ''): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : sourceFiles(file);
    return TEXT_FILE.test(entry.name) && entry.name !== 'package-lock.json' ? [file] : [];
  });
}

/** GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(doc: string): Set<string> {
  const text = readFileSync(path.join(root, doc), 'utf8');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]!)));
}

describe('the repository stands alone: citations', () => {
  const files = sourceFiles();
  const lines = files.flatMap((file) =>
    readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .map((text, i) => ({ where: `${file}:${i + 1}`, text })),
  );

  it('reads the whole tree (a sanity check on the walk)', () => {
    expect(files).to.include.members([
      'README.md',
      'docs/holdings.md',
      'server/src/app.ts',
      'client/src/App.tsx',
    ]);
  });

  it('cites no numbered section of a document outside the repository', () => {
    // Written as an escape so that this file does not cite one itself.
    const section = /\u00a7\s*\d/;
    const found = lines.filter((line) => section.test(line.text)).map((l) => `${l.where}: ${l.text.trim()}`);
    if (found.length > 0) {
      expect.fail(
        `${found.length} lines cite a numbered section; cite the docs/ page instead:\n${found.join('\n')}`,
      );
    }
  });

  it('cites docs/ pages and headings that exist', () => {
    const anchors = new Map<string, Set<string>>();
    const broken: string[] = [];
    for (const line of lines) {
      for (const [citation, page, anchor] of line.text.matchAll(/\bdocs\/([\w-]+\.md)(?:#([\w-]+))?/g)) {
        const doc = `docs/${page}`;
        if (!existsSync(path.join(root, doc))) broken.push(`${line.where}: ${citation} (no such page)`);
        else if (anchor) {
          if (!anchors.has(doc)) anchors.set(doc, anchorsOf(doc));
          if (!anchors.get(doc)!.has(anchor)) broken.push(`${line.where}: ${citation} (no such heading)`);
        }
      }
    }
    if (broken.length > 0) expect.fail(`${broken.length} citations lead nowhere:\n${broken.join('\n')}`);
  });
});
