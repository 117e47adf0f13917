import ts from 'typescript';

// Measures what issue 34 limits: how many lines each function's body spans, from the line of its
// opening brace to the line of its closing one (or the whole expression of an arrow function
// without braces). A nested function counts inside its parent as well as on its own.

export interface LongFunction {
  name: string;
  /** 1-based line of the function's start in the file it came from. */
  line: number;
  bodyLines: number;
}

const SCRIPT = /(<script[^>]*>)([\s\S]*?)<\/script>/g;

/** The script blocks of a .svelte file, each with the line in the file its code starts on (0-based). */
function svelteScripts(text: string): { code: string; firstLine: number }[] {
  return [...text.matchAll(SCRIPT)].map((m) => {
    const before = text.slice(0, m.index + m[1]!.length);
    return { code: m[2]!, firstLine: before.split('\n').length - 1 };
  });
}

type FunctionNode = ts.FunctionLikeDeclaration & { body: ts.Node };

function isFunctionWithBody(node: ts.Node): node is FunctionNode {
  return (
    (ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node) ||
      ts.isConstructorDeclaration(node)) &&
    node.body !== undefined
  );
}

function nameText(name: ts.Node | undefined, file: ts.SourceFile): string | undefined {
  if (name === undefined) return undefined;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name)) return name.text;
  return name.getText(file);
}

/** A readable name: the declared one, else what it is assigned to or passed to, with its class if any. */
function functionName(node: FunctionNode, file: ts.SourceFile): string {
  const own = ts.isConstructorDeclaration(node) ? 'constructor' : nameText(node.name, file);
  const parent = node.parent;
  let name = own;
  if (name === undefined) {
    if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
      name = nameText(parent.name, file);
    } else if (ts.isCallExpression(parent)) {
      name = `${parent.expression.getText(file)}(…)`;
    }
  }
  const classNode = ts.isClassElement(node) ? node.parent : ts.isPropertyDeclaration(parent) ? parent.parent : undefined;
  const className = classNode !== undefined && ts.isClassLike(classNode) ? nameText(classNode.name, file) : undefined;
  if (ts.isGetAccessorDeclaration(node)) name = `get ${name}`;
  if (ts.isSetAccessorDeclaration(node)) name = `set ${name}`;
  return className === undefined ? (name ?? '(anonymous)') : `${className}.${name ?? '(anonymous)'}`;
}

function longInCode(code: string, firstLine: number, maxLines: number, scriptKind: ts.ScriptKind): LongFunction[] {
  const file = ts.createSourceFile('source.ts', code, ts.ScriptTarget.Latest, true, scriptKind);
  const found: LongFunction[] = [];
  const lineOf = (pos: number): number => file.getLineAndCharacterOfPosition(pos).line;
  const visit = (node: ts.Node): void => {
    if (isFunctionWithBody(node)) {
      const bodyLines = lineOf(node.body.getEnd()) - lineOf(node.body.getStart(file)) + 1;
      if (bodyLines > maxLines) {
        found.push({
          name: functionName(node, file),
          line: firstLine + lineOf(node.getStart(file)) + 1,
          bodyLines,
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The functions, methods, arrow functions and accessors of a .ts or .svelte file whose body spans more than `maxLines`. */
export function longFunctions(path: string, text: string, maxLines: number): LongFunction[] {
  if (path.endsWith('.svelte')) {
    return svelteScripts(text).flatMap((s) => longInCode(s.code, s.firstLine, maxLines, ts.ScriptKind.TS));
  }
  return longInCode(text, 0, maxLines, ts.ScriptKind.TS);
}
