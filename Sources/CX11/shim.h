// Xlib, Xutil, the MIT-SHM, SYNC (libXext) and RandR (libXrandr) extensions, plus System V shared memory, for CrispX11.
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/extensions/XShm.h>
#include <X11/extensions/sync.h>
#include <X11/extensions/Xrandr.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <poll.h>
