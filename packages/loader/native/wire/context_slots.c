/* The contexts of an instance's calls: handing one out, taking one back, the caller's metadata (context_slots.h). */
#include "context_slots.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define US '\x1f'
#define RS '\x1e'
/* Free contexts a call looks at before it makes a new one: those called late recently go to the back. */
#define LOOKS_MAX 4

static void push(wire_call_t* call, wire_slot_t* slot) {
  slot->next = NULL;
  if (call->free_last != NULL) call->free_last->next = slot;
  else call->free_first = slot;
  call->free_last = slot;
  call->free_count++;
}

static wire_slot_t* pop(wire_call_t* call) {
  wire_slot_t* slot = call->free_first;
  call->free_first = slot->next;
  if (call->free_first == NULL) call->free_last = NULL;
  call->free_count--;
  slot->next = NULL;
  return slot;
}

wire_slot_t* wire_slot_take(wire_call_t* call, int64_t now) {
  /* The oldest free context has WIRE_CONTEXT_QUARANTINE others behind it: that many calls returned since its own. */
  for (int i = 0; i < LOOKS_MAX && call->free_count > WIRE_CONTEXT_QUARANTINE; i++) {
    wire_slot_t* slot = pop(call);
    if (slot->late_ns == 0 || now - slot->late_ns >= WIRE_CONTEXT_QUIET_NS) {
      slot->late_ns = 0;
      return slot;
    }
    push(call, slot);
  }
  if (call->slot_count >= WIRE_CONTEXT_MAX) return NULL;
  wire_slot_t* slot = (wire_slot_t*)calloc(1, sizeof *slot);
  if (slot == NULL) return NULL;
  slot->owner = call;
  call->slot_count++;
  return slot;
}

void wire_slot_retire(wire_call_t* call, wire_slot_t* slot) {
  /* Atomic stores: a plugin thread may be reading the struct it kept. */
  entropic_call_context_t* c = &slot->context;
  __atomic_store_n(&c->subject, (const char*)NULL, __ATOMIC_RELAXED);
  __atomic_store_n(&c->scopes, (const char*)NULL, __ATOMIC_RELAXED);
  __atomic_store_n(&c->protocol_version, (const char*)NULL, __ATOMIC_RELAXED);
  __atomic_store_n(&c->request_id, (const char*)NULL, __ATOMIC_RELAXED);
  push(call, slot);
}

static void free_slot(wire_slot_t* slot) {
  free(slot->meta);
  free(slot);
}

void wire_slot_free_all(wire_call_t* call) {
  while (call->free_first != NULL) free_slot(pop(call));
  if (call->current != NULL) free_slot(call->current);
  call->current = NULL;
  call->slot_count = 0;
}

int wire_slot_read_meta(wire_slot_t* slot, const char* meta) {
  size_t len = meta != NULL ? strlen(meta) : 0;
  slot->meta_len = 0;
  if (len == 0) return 0;
  if (slot->meta_cap < len + 2) {
    char* grown = (char*)realloc(slot->meta, len + 2);
    if (grown == NULL) return -1;
    slot->meta = grown;
    slot->meta_cap = len + 2;
  }
  char* out = slot->meta;
  size_t n = 0;
  const char* entry = meta;
  const char* end = meta + len;
  while (entry < end) {
    const char* stop = (const char*)memchr(entry, RS, (size_t)(end - entry));
    if (stop == NULL) stop = end;
    const char* sep = (const char*)memchr(entry, US, (size_t)(stop - entry));
    if (sep != NULL) {
      memcpy(out + n, entry, (size_t)(sep - entry));
      n += (size_t)(sep - entry);
      out[n++] = '\0';
      memcpy(out + n, sep + 1, (size_t)(stop - sep - 1));
      n += (size_t)(stop - sep - 1);
      out[n++] = '\0';
    }
    entry = stop + 1;
  }
  slot->meta_len = n;
  return 0;
}

const char* wire_slot_meta(const wire_slot_t* slot, const char* prefix, const char* key) {
  size_t prefix_len = strlen(prefix);
  const char* at = slot->meta;
  const char* end = slot->meta + slot->meta_len;
  while (at != NULL && at < end) {
    const char* value = at + strlen(at) + 1;
    if (value >= end) break;
    if (strncmp(at, prefix, prefix_len) == 0) {
      const char* a = at + prefix_len;
      const char* b = key;
      while (*a != '\0' && *b != '\0' && tolower((unsigned char)*a) == tolower((unsigned char)*b)) a++, b++;
      if (*a == '\0' && *b == '\0') return value;
    }
    at = value + strlen(value) + 1;
  }
  return NULL;
}
