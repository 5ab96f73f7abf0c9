"""Headless Chromium for the tests that open the site's pages: its flags, and a launch that is a
skip where it cannot start."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from system_tools import chromium_path

#: Chromium's flags for the site tests: headless, no network of its own, sound without a click,
#: and no address but 127.0.0.1's reached (any other goes to a proxy that is not there: refused
#: by Chromium itself, with no request stopped and resumed through Playwright on the way).
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--autoplay-policy=no-user-gesture-required",
    "--proxy-server=127.0.0.1:9",
    "--proxy-bypass-list=127.0.0.1",
]


def launch(playwright, args: list[str]):
    """A headless Chromium (system_tools' chromium_path), or a skip saying why it cannot start."""
    try:
        return playwright.chromium.launch(executable_path=chromium_path() or "chromium", args=args)
    except Exception as exc:  # a browser that cannot start here is a skip, not a failure
        pytest.skip(f"Chromium does not start: {str(exc).splitlines()[0]}")


def evaluated(page, function: str, arg: Any = None) -> Any:
    """What the JS `function` (given `arg`, awaited) returns in `page`, carried as one JSON text:
    Playwright's own serialisation takes seconds over a large object (a thousand comparisons)."""
    return json.loads(page.evaluate(f"async (arg) => JSON.stringify(await ({function})(arg))", arg))


#: The WAV a score page made last (window.drumscore.wav) as its header describes it, and the
#: SHA-256 of its samples (its data chunk): a digest crosses from the browser, not megabytes.
_WAV_DIGEST = """async () => {
    const buffer = await window.drumscore.wav.blob.arrayBuffer();
    const view = new DataView(buffer);
    const text = (at) => String.fromCharCode(...new Uint8Array(buffer, at, 4));
    const header = [text(0) + text(8)];
    let data = null;
    for (let at = 12; at + 8 <= buffer.byteLength;) {
        const size = view.getUint32(at + 4, true);
        if (text(at) === "fmt ") {
            header.push(view.getUint16(at + 8, true), view.getUint32(at + 12, true),
                        view.getUint16(at + 22, true), view.getUint16(at + 10, true));
        } else if (text(at) === "data") {
            data = new Uint8Array(buffer, at + 8, size);
        }
        at += 8 + size + (size & 1);
    }
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
    const sha256 = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
    return {header, bytes: data.length, sha256};
}"""


def wav_digest(page) -> dict[str, Any]:
    """The page's last WAV: `header` ("RIFFWAVE", format, rate, bits, channels), the `bytes` of
    its samples and their `sha256`, as samples_digest gives it for the same 16-bit samples."""
    found = page.evaluate(_WAV_DIGEST)
    return {**found, "header": tuple(found["header"])}


def samples_digest(samples) -> str:
    """The SHA-256 of 16-bit samples (frames, channels) as a WAV's data chunk holds them."""
    return hashlib.sha256(samples.astype("<i2").tobytes()).hexdigest()
