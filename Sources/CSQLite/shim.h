// The system's SQLite 3 (Debian/Ubuntu: libsqlite3-dev; macOS: in the SDK).
#include <sqlite3.h>
