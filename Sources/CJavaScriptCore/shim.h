// The system's JavaScriptCore, through its C API (Debian/Ubuntu: libjavascriptcoregtk-4.1-dev;
// Apple platforms: the JavaScriptCore framework). Only the opt-in `ECMAScript` trait links it.
#include <JavaScriptCore/JavaScript.h>
#include <stdbool.h>

// Exported by every JavaScriptCore build (JSContextRefPrivate.h), not declared in the public
// headers: a script running past `limit` seconds calls `callback`, and stops when it returns true.
typedef bool (*JSShouldTerminateCallback)(JSContextRef ctx, void *context);
JS_EXPORT void JSContextGroupSetExecutionTimeLimit(JSContextGroupRef group, double limit, JSShouldTerminateCallback callback, void *context);
JS_EXPORT void JSContextGroupClearExecutionTimeLimit(JSContextGroupRef group);

// Also exported and private (JSBasePrivate.h): the VM's heap figures, as an object whose
// `heapSize` is the bytes its heap holds.
JS_EXPORT JSObjectRef JSGetMemoryUsageStatistics(JSContextRef ctx);
