import ts from 'typescript'

/** Every name a module exports, values and types alike, as the TypeScript checker sees them (sorted). */
export function exportedNames(file: string): string[] {
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  })
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(file)
  const symbol = source && checker.getSymbolAtLocation(source)
  if (!symbol) throw new Error(`${file}: not a module`)
  return checker
    .getExportsOfModule(symbol)
    .map((s) => s.name)
    .sort()
}
