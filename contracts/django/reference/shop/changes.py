"""Tell the shop what changed (contracts/README.md, "Tell the shop what changed").

The shop keeps its pages for a long while and renews them when the backend says what changed:
a signed POST to the shop's /hooks/changed. Signals name what a saved or deleted row shows
(shop/signals.py); each change goes out after its transaction commits, from a thread of its own,
so that no answer of the backend waits for the shop. Changes that pile up while one is being sent
go out together. A refused or lost attempt is tried again after a growing pause, each attempt a
new hook (new id, new time, new signature): the shop takes every id once. A change that never
gets through costs shoppers the shop's page lifetime, at most.

Settings (berries/settings.py): SHOP_CHANGE_HOOK_URL, SHOP_CHANGE_HOOK_SECRET; either unset, and
nothing is sent.
"""

import atexit
import hashlib
import hmac
import json
import logging
import queue
import threading
import time
import urllib.error
import urllib.request
import uuid

from django.conf import settings
from django.db import transaction

log = logging.getLogger("shop.changes")

# The pauses between attempts, in seconds: about a minute in all, then the change is dropped.
RETRY_PAUSES = [0.5, 1, 2, 4, 8, 15, 30]
TIMEOUT = 5
LISTS = ("products", "sections", "selections")
FLAGS = ("slides", "news", "policy", "everything")


def tell_shop(**changed):
    """Tells the shop, once the current transaction commits, that these changed:
    products=[ids], sections=[ids], selections=[ids], slides/news/policy/everything=True."""
    if not (settings.SHOP_CHANGE_HOOK_URL and settings.SHOP_CHANGE_HOOK_SECRET) or _paused:
        return
    transaction.on_commit(lambda: _sender().put(changed))


def hook_body(changed):
    """The hook's body: a new id, the time it is sent, and what changed."""
    body = {"id": uuid.uuid4().hex, "sent_at": int(time.time())}
    for name in LISTS:
        ids = sorted({int(pk) for pk in changed.get(name, ()) if pk is not None})
        if ids:
            body[name] = ids
    for name in FLAGS:
        if changed.get(name):
            body[name] = True
    return json.dumps(body, separators=(",", ":")).encode()


def signature(body, secret):
    """X-Shop-Signature: sha256=<HMAC-SHA256 of the body, in hex>."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def merged(one, other):
    """Two changes as one."""
    result = {name: set(one.get(name, ())) | set(other.get(name, ())) for name in LISTS}
    result.update({name: bool(one.get(name) or other.get(name)) for name in FLAGS})
    return result


class Sender:
    """One thread that sends the queued changes, merged, retrying each with a growing pause."""

    def __init__(self, url, secret, pauses=RETRY_PAUSES, sleep=time.sleep):
        self.url, self.secret, self.pauses, self.sleep = url, secret, pauses, sleep
        self.queue = queue.Queue()
        threading.Thread(target=self.run, name="tell-shop", daemon=True).start()

    def put(self, changed):
        self.queue.put(changed)

    def run(self):
        while True:
            changed = self.queue.get()
            taken = 1
            while True:  # what piled up meanwhile goes in the same hook
                try:
                    changed = merged(changed, self.queue.get_nowait())
                    taken += 1
                except queue.Empty:
                    break
            self.send(changed)
            for _ in range(taken):
                self.queue.task_done()

    def send(self, changed):
        for pause in [*self.pauses, None]:
            body = hook_body(changed)
            try:
                request = urllib.request.Request(
                    self.url,
                    data=body,
                    method="POST",
                    headers={
                        "Content-Type": "application/json",
                        "X-Shop-Signature": signature(body, self.secret),
                    },
                )
                with urllib.request.urlopen(request, timeout=TIMEOUT):
                    return True
            except urllib.error.HTTPError as error:
                # 400 and 413: this body will never be taken. 401 may be a clock or a shop that
                # has just started: a new hook may be.
                if error.code in (400, 413):
                    log.error("the shop refused the change hook: %s %s", error.code, error.read())
                    return False
                log.warning("the shop answered the change hook with %s", error.code)
            except OSError as error:
                log.warning("the change hook did not reach the shop: %s", error)
            if pause is None:
                log.error("the change hook was dropped after %s attempts", len(self.pauses) + 1)
                return False
            self.sleep(pause)
        return False

    def wait(self, timeout):
        """Waits until every queued change is sent or dropped, at most `timeout` seconds."""
        done = threading.Event()

        def join():
            self.queue.join()
            done.set()

        threading.Thread(target=join, daemon=True).start()
        return done.wait(timeout)


_lock = threading.Lock()
_running = None
_paused = False


def _sender():
    global _running
    with _lock:
        if _running is None:
            _running = Sender(settings.SHOP_CHANGE_HOOK_URL, settings.SHOP_CHANGE_HOOK_SECRET)
            # A management command or a shell exits right after its save: its change goes first.
            atexit.register(_running.wait, 10)
        return _running


class paused:
    """`with changes.paused():` nothing is told (the seed: the shop starts after it)."""

    def __enter__(self):
        global _paused
        _paused = True

    def __exit__(self, *exc):
        global _paused
        _paused = False
