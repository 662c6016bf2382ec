// cpp-hello: a C++ plugin whose entry points are bare definitions. The header's declarations carry the export
// attribute and C linkage, so with -fvisibility=hidden exactly the nine entry points are exported.
//   greet {name}        "Hello, <name>!"
//   word_count {text}   the number of words, as JSON {"words":N}
#include <entropic/interfaces/i_mcp_server.h>

#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>

struct entropic_mcp_server {
  std::string greeting = "Hello";
};

namespace {

const char* const kTools =
    R"([{"name":"greet","description":"Greets someone.","inputSchema":{"type":"object",)"
    R"("properties":{"name":{"type":"string"}},"required":["name"]}},)"
    R"({"name":"word_count","description":"Counts the words of a text.","inputSchema":{"type":"object",)"
    R"("properties":{"text":{"type":"string"}},"required":["text"]}}])";

// The decoded value of a top-level string field (enough for these arguments), or "" when absent.
std::string field(const std::string& json, const std::string& key) {
  auto at = json.find("\"" + key + "\"");
  if (at == std::string::npos) return "";
  at = json.find(':', at + key.size() + 2);
  if (at == std::string::npos) return "";
  at = json.find('"', at);
  if (at == std::string::npos) return "";
  std::string out;
  for (auto i = at + 1; i < json.size() && json[i] != '"'; i++) {
    if (json[i] == '\\' && i + 1 < json.size()) i++;
    out += json[i];
  }
  return out;
}

std::string quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
      continue;
    }
    out += c;
  }
  return out + "\"";
}

char* copy(const std::string& s) {
  auto* out = static_cast<char*>(std::malloc(s.size() + 1));
  std::memcpy(out, s.c_str(), s.size() + 1);
  return out;
}

char* answer(const std::string& result) { return copy(R"({"result":)" + quote(result) + R"(,"directives":[]})"); }

}  // namespace

int entropic_plugin_api_version() { return ENTROPIC_MCP_PLUGIN_API_VERSION; }

entropic_mcp_server_t entropic_create_server() { return new (std::nothrow) entropic_mcp_server(); }

const char* entropic_mcp_server_name(entropic_mcp_server_t) { return "cpp-hello"; }

char* entropic_mcp_server_list_tools(entropic_mcp_server_t) { return copy(kTools); }

char* entropic_mcp_server_execute(entropic_mcp_server_t server, const char* tool_name, const char* args_json) {
  const std::string tool = tool_name, args = args_json;
  if (tool == "greet") return answer(server->greeting + ", " + field(args, "name") + "!");
  if (tool == "word_count") {
    std::istringstream words(field(args, "text"));
    std::size_t n = 0;
    for (std::string w; words >> w;) n++;
    return answer(R"({"words":)" + std::to_string(n) + "}");
  }
  return answer("unknown tool " + tool);
}

entropic_error_t entropic_mcp_server_configure(entropic_mcp_server_t server, const char* config_json) {
  const std::string greeting = field(config_json, "greeting");
  if (!greeting.empty()) server->greeting = greeting;
  return ENTROPIC_OK;
}

entropic_error_t entropic_mcp_server_set_working_dir(entropic_mcp_server_t, const char*) { return ENTROPIC_OK; }

void entropic_mcp_server_destroy(entropic_mcp_server_t server) { delete server; }

void entropic_free(void* ptr) { std::free(ptr); }
