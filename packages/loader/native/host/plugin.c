/* Loads one plugin library and checks it against the contract (see plugin.h). */
#include "plugin.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "entropic_abi_tables.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

const char* plugin_error_name(int value) { return entropic_abi_error_name(value); }

static int fail(load_error_t* err, entropic_error_t code, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
  err->code = code;
  return -1;
}

/* The slot of an entry point in the generated symbol table, or -1 when the table lacks it. */
static int slot_of(const char* name) {
  for (size_t i = 0; i < COUNT_OF(entropic_abi_entry_points); i++) {
    if (strcmp(entropic_abi_entry_points[i], name) == 0) return (int)i;
  }
  return -1;
}

#define TAKE(field, symbol)                                              \
  do {                                                                   \
    int slot = slot_of(#symbol);                                         \
    if (slot < 0) return -1;                                             \
    memcpy(&p->field, &found[slot], sizeof p->field);                    \
  } while (0)

static int bind_entry_points(plugin_t* p, void* const* found) {
  TAKE(api_version_fn, entropic_plugin_api_version);
  TAKE(create_server, entropic_create_server);
  TAKE(server_name, entropic_mcp_server_name);
  TAKE(list_tools, entropic_mcp_server_list_tools);
  TAKE(execute, entropic_mcp_server_execute);
  TAKE(configure, entropic_mcp_server_configure);
  TAKE(set_working_dir, entropic_mcp_server_set_working_dir);
  TAKE(destroy, entropic_mcp_server_destroy);
  TAKE(free_fn, entropic_free);
  return 0;
}

/* Looks up the optional entry points; a plugin may define none of them. */
static void resolve_optional(plugin_t* p) {
  for (size_t i = 0; i < ENTROPIC_ABI_OPTIONAL_ENTRY_POINT_COUNT; i++) {
    void* found = dlsym(p->library, entropic_abi_optional_entry_points[i]);
    if (found != NULL && strcmp(entropic_abi_optional_entry_points[i], "entropic_mcp_server_execute_with_context") == 0) {
      memcpy(&p->execute_with_context, &found, sizeof p->execute_with_context);
    }
  }
}

/* Resolves every entry point; names all the missing ones at once. */
static int resolve_all(plugin_t* p, const char* path, load_error_t* err) {
  void* found[COUNT_OF(entropic_abi_entry_points)];
  char missing[2048] = "";
  size_t count = 0;
  for (size_t i = 0; i < COUNT_OF(entropic_abi_entry_points); i++) {
    dlerror();
    found[i] = dlsym(p->library, entropic_abi_entry_points[i]);
    if (found[i] == NULL) {
      size_t used = strlen(missing);
      snprintf(missing + used, sizeof missing - used, "%s%s", count ? ", " : "", entropic_abi_entry_points[i]);
      count++;
    }
  }
  if (count > 0) {
    return fail(err, ENTROPIC_ERROR_PLUGIN_LOAD_FAILED,
                "%s does not export %zu of the %zu plugin entry points: %s (were they declared with "
                "ENTROPIC_EXPORT and C linkage?)",
                path, count, COUNT_OF(entropic_abi_entry_points), missing);
  }
  if (bind_entry_points(p, found) != 0) {
    return fail(err, ENTROPIC_ERROR_INTERNAL, "the generated symbol table lacks an entry point this host calls");
  }
  resolve_optional(p);
  return 0;
}

int plugin_load(plugin_t* p, const char* path, load_error_t* err) {
  memset(p, 0, sizeof *p);
  dlerror();
  p->library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (p->library == NULL) {
    const char* why = dlerror();
    return fail(err, ENTROPIC_ERROR_PLUGIN_LOAD_FAILED, "cannot load %s: %s", path, why ? why : "unknown error");
  }
  int rc = resolve_all(p, path, err);
  if (rc == 0) {
    p->api_version = p->api_version_fn();
    if (p->api_version != ENTROPIC_MCP_PLUGIN_API_VERSION) {
      /* The plugin's version alone: the loader's call guard (src/guard.ts) words the refusal for both modes. */
      rc = fail(err, ENTROPIC_ERROR_PLUGIN_VERSION_MISMATCH, "%d", p->api_version);
    }
  }
  if (rc == 0) {
    p->server = p->create_server();
    if (p->server == NULL) {
      rc = fail(err, ENTROPIC_ERROR_PLUGIN_LOAD_FAILED, "entropic_create_server() of %s returned NULL", path);
    }
  }
  if (rc == 0) {
    p->name = p->server_name(p->server);
    if (p->name == NULL || p->name[0] == '\0') {
      rc = fail(err, ENTROPIC_ERROR_PLUGIN_LOAD_FAILED,
                "entropic_mcp_server_name() of %s returned %s; the name is the plugin's routing prefix and "
                "must not be empty",
                path, p->name == NULL ? "NULL" : "an empty string");
    }
  }
  if (rc != 0) plugin_unload(p);
  return rc;
}

void plugin_unload(plugin_t* p) {
  if (p->server != NULL && p->destroy != NULL) p->destroy(p->server);
  p->server = NULL;
  if (p->library != NULL) dlclose(p->library);
  p->library = NULL;
}
