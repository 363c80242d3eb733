"""A process that imports manim and torch once, then forks a render worker from itself for each clip.

`python -m rendering.encode.warm_server SOCKET_FD WORK_ROOT` (started by rendering.pipeline.warm_start; WORK_ROOT
only names the run it serves). A worker process of its own for each clip keeps clips apart
(rendering/encode/worker.py), but each one spent about three seconds importing torch and manim before drawing a
frame: a fifth of a clip at low quality. A child forked from this process starts with them imported, and is
still a process of its own: nothing it does reaches the server or another clip. Only third-party modules and the
worker module (which reads nothing from the environment) are imported here; the scenes and the math are imported
by each child, so a module that reads the job's environment (the example, the language) at import reads that
child's.

The socket is a SOCK_SEQPACKET pair, one JSON message at a time:
  request  {"job": JOB_JSON_PATH}, with the worker's event pipe (and, unless verbose, its log file) as fds
  reply    {"pid": PID}; later, for each child that ends, {"exit": PID, "status": CODE, "cpu": SECONDS}
The server ends when its socket closes (render.py is done), and with render.py if that is killed outright.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import signal
import socket
import sys

#: What every worker imports and takes seconds to: torch (through attention_math) and manim (PyAV with it).
PRELOADED = ("torch", "manim", "av")
#: How often the server looks for children that have ended, when no request arrives.
REAP_EVERY = 0.05


def serve(sock: socket.socket) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is render.py's to handle; it stops the workers
    from rendering.encode.worker import _die_with_parent

    _die_with_parent()
    for module in PRELOADED:
        __import__(module)
    while True:
        _send_exits(sock)
        ready, _, _ = select.select([sock], [], [], REAP_EVERY)
        if not ready:
            continue
        message, fds, _, _ = socket.recv_fds(sock, 65536, 2)
        if not message:
            break  # render.py closed its end
        request = json.loads(message)
        pid = os.fork()
        if pid == 0:
            _run_worker(sock, request["job"], fds)
        for fd in fds:
            os.close(fd)
        sock.send(json.dumps({"pid": pid}).encode())
    _send_exits(sock, block=True)


def _send_exits(sock: socket.socket, block: bool = False) -> None:
    """Reap every child that has ended and tell render.py its status and CPU seconds (all its threads)."""
    while True:
        try:
            pid, status, usage = os.wait4(-1, 0 if block else os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        try:
            sock.send(json.dumps({"exit": pid, "status": os.waitstatus_to_exitcode(status),
                                  "cpu": usage.ru_utime + usage.ru_stime}).encode())
        except OSError:
            pass  # render.py has gone; the child is reaped all the same


def _run_worker(sock: socket.socket, job_file: str, fds: list[int]) -> None:
    """In the forked child: become the worker process render.py would have started, run it, and exit."""
    code = 1
    try:
        sock.close()
        signal.signal(signal.SIGINT, signal.default_int_handler)
        events_fd, *log = fds
        if log:  # not verbose: stdout and stderr to the worker's log, as render.py's Popen did
            os.dup2(log[0], 1)
            os.dup2(log[0], 2)
            os.close(log[0])
        from rendering.encode import worker

        code = worker.main([job_file, str(events_fd)])
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        try:
            atexit._run_exitfuncs()  # what the interpreter's own exit would run
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


if __name__ == "__main__":
    serve(socket.socket(fileno=int(sys.argv[1])))
