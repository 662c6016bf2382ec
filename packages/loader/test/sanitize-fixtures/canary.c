/* A plugin with a deliberate double free in execute: under the sanitized host it must produce an
 * AddressSanitizer report, which shows scripts/sanitize.sh would see a real one. */
#define FX_NAME "canary"
#define FX_TOOLS "[{\"name\":\"double_free\",\"inputSchema\":{\"type\":\"object\"}}]"
#include "../fixtures/fixture.h"

char* entropic_mcp_server_execute(entropic_mcp_server_t server, const char* tool, const char* args) {
  (void)server;
  (void)tool;
  (void)args;
  char* volatile block = malloc(16);
  free(block);
  free(block);
  return fx_answer("unreachable", "");
}
