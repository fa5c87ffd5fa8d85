/**
 * Reading the Dockerfile and .dockerignore without Docker: the stages and their instructions,
 * and which build-context paths an ignore file leaves out. The image test follows the stages.
 */

export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  name: string;
  /** The image or the earlier stage this one starts from. */
  from: string;
  instructions: Instruction[];
}

/** The stages of a Dockerfile (continuation lines joined, comments dropped). */
export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const lines = text
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  for (const line of lines) {
    const [, keyword, args] = /^(\S+)\s+(.*)$/.exec(line) ?? [];
    if (!keyword || args === undefined) throw new Error(`cannot read Dockerfile line: ${line}`);
    if (keyword === 'FROM') {
      const [, from, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args) ?? [];
      if (!from) throw new Error(`cannot read FROM line: ${line}`);
      stages.push({ name: name ?? String(stages.length), from, instructions: [] });
    } else {
      const stage = stages.at(-1);
      if (!stage) throw new Error(`${keyword} before the first FROM`);
      stage.instructions.push({ keyword, args });
    }
  }
  return stages;
}

/** A glob of .dockerignore as a regular expression over a context-relative path. */
function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (glob.startsWith('**/', i)) {
      source += '(?:.*/)?';
      i += 2;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/**
 * Whether .dockerignore leaves `relative` (a context path, `/`-separated) out of the build
 * context: the last pattern matching the path or one of its parent folders decides, `!` keeps.
 */
export function dockerignoreFilter(ignoreFile: string): (relative: string) => boolean {
  const rules = ignoreFile
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => ({ keep: line.startsWith('!'), pattern: globToRegExp(line.replace(/^!/, '')) }));
  return (relative) => {
    const parts = relative.split('/');
    const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
    let ignored = false;
    for (const rule of rules) {
      if (prefixes.some((prefix) => rule.pattern.test(prefix))) ignored = !rule.keep;
    }
    return ignored;
  };
}
