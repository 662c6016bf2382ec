{
  "variables": {
    "abi_include%": "<!(node scripts/abi-dirs.mjs include)",
    "abi_native%": "<!(node scripts/abi-dirs.mjs native)"
  },
  "targets": [
    {
      "target_name": "entropic_plugin_host",
      "type": "executable",
      "sources": ["<!@(node scripts/abi-dirs.mjs host-sources)"],
      "include_dirs": ["<(abi_include)", "<(abi_native)"],
      "cflags": ["-std=gnu11", "-O2", "-fvisibility=hidden", "-Wall", "-Wextra"],
      "cflags!": ["-fno-exceptions"],
      "libraries": ["-ldl"]
    }
  ]
}
