/* The contexts of an instance's calls (wire_slot_t in context.h): which one a call gets, what a returned call leaves
 * of it, and the caller's metadata it holds. Private to context.c; every function runs with the call's lock held. */
#ifndef ENTROPIC_WIRE_CONTEXT_SLOTS_H
#define ENTROPIC_WIRE_CONTEXT_SLOTS_H

#include "context.h"

/* A context for the next call: the oldest free one that waited long enough, else a new one; NULL when memory ran
 * out, or at WIRE_CONTEXT_MAX while the free ones are still being called late. */
wire_slot_t* wire_slot_take(wire_call_t* call, int64_t now);
/* After its call returned: empties the context's string members and queues it behind the other free ones. */
void wire_slot_retire(wire_call_t* call, wire_slot_t* slot);
/* Frees every context of the call (with the instance: the plugin is unloaded by then). */
void wire_slot_free_all(wire_call_t* call);

/* Copies `meta` into the slot as key NUL value NUL pairs. 0, or -1 when memory ran out. */
int wire_slot_read_meta(wire_slot_t* slot, const char* meta);
/* The value of the slot's metadata pair whose key is `prefix` then `key`, the `key` part compared
 * case-insensitively; NULL when there is none. */
const char* wire_slot_meta(const wire_slot_t* slot, const char* prefix, const char* key);

#endif
