# The node-gyp build of the plugin host and the in-process addon. It lives here, not at the package root, so
# no package manager runs `node-gyp rebuild` on install; scripts/build-native.mjs (and prebuild.mjs) copy it to
# binding.gyp at the package root for the build, so every path below is relative to the package root.
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
      "include_dirs": ["<(abi_include)", "<(abi_native)", "native/wire"],
      "defines": ["<!@(node scripts/abi-dirs.mjs seccomp-defines)"],
      "cflags": ["-std=gnu11", "-O2", "-pthread", "-fvisibility=hidden", "-Wall", "-Wextra"],
      "cflags!": ["-fno-exceptions"],
      "libraries": ["-ldl", "-lpthread", "<!@(node scripts/abi-dirs.mjs seccomp-libs)"]
    },
    {
      "target_name": "entropic_loader",
      "sources": [
        "native/addon/addon.cc",
        "native/addon/native_plugin.cc",
        "native/addon/plugin_error.cc",
        "native/addon/plugin_instance.cc",
        "native/addon/plugin_library.cc",
        "native/wire/spin.c",
        "native/wire/context.c",
        "native/wire/context_slots.c",
        "native/wire/wire.c"
      ],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")", "<(abi_include)", "<(abi_native)", "native/wire"],
      "defines": ["NAPI_VERSION=8", "NAPI_CPP_EXCEPTIONS", "NODE_ADDON_API_DISABLE_DEPRECATED"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions"],
      "cflags": ["-fvisibility=hidden", "-O2", "-Wall", "-Wextra"],
      "cflags_c": ["-std=gnu11"],
      "cflags_cc": ["-fexceptions"],
      "libraries": ["-ldl", "-lpthread"]
    }
  ]
}
