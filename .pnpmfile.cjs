// Puts the workspace's own command-line tools (entropic-mcp, entropic-abi) in the root's node_modules/.bin, for
// `pnpm exec` at the root, without naming them in the root package.json: turbo hashes every file of each package
// the root package.json depends on into every task's hash, so there they made any edit (a test file's too)
// rebuild and retest every package.
const ROOT_TOOLS = [
  '@entropic-mcp/abi-headers',
  '@entropic-mcp/codegen',
  '@entropic-mcp/loader',
  '@entropic-mcp/serve',
  '@entropic-mcp/server',
];

module.exports = {
  hooks: {
    readPackage(pkg) {
      if (pkg.name !== 'entropic-mcp-workspace') return pkg;
      const links = Object.fromEntries(ROOT_TOOLS.map((name) => [name, 'workspace:*']));
      pkg.devDependencies = { ...pkg.devDependencies, ...links };
      return pkg;
    },
  },
};
