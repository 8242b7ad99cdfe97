#!/usr/bin/env python3
"""Renders bisolve's pictures the way a browser does, and checks they show the level.

Writes an animated SVG, a still SVG (`show --svg`) and an animated GIF of levels from
levels/demo.xsb with the built binary. Each SVG must parse as XML with unique ids. Headless
Chromium (Debian's `chromium` package, installed with apt-get when missing) then draws each
picture (the GIF's first frame, inside a page) to PNG, and each PNG must show the level: the
wall, floor, box and player colours of bisolve's palette all present, on a picture that is not
mostly blank.

    python3 benches/render_pictures.py [--bin target/release/bisolve] [--keep DIR]

Exit status 0 when every picture passes, 1 when one fails, 2 when Chromium cannot be had.
Plain Python 3: the PNGs are decoded with zlib.
"""

import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# bisolve's palette (crates/cli/src/svg.rs and gif_anim.rs use the same base colours).
COLOURS = {
    "wall": (0x7A, 0x5C, 0x45),
    "floor": (0xEF, 0xE6, 0xD2),
    "box": (0xD9, 0x90, 0x2F),
    "player": (0x2F, 0x5F, 0xD0),
}
# Antialiasing and colour management move a colour a little.
TOLERANCE = 6
# Pixels of one colour needed to count it as drawn.
MIN_PIXELS = 20


def find_chromium():
    """The Chromium executable, installing Debian's package when none is on PATH."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    apt = shutil.which("apt-get")
    if apt is None:
        return None
    prefix = [] if os.geteuid() == 0 else (["sudo", "-n"] if shutil.which("sudo") else None)
    if prefix is None:
        return None
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    print("installing chromium with apt-get ...", flush=True)
    for args in (["update", "-qq"], ["install", "-y", "-qq", "--no-install-recommends", "chromium"]):
        if subprocess.run(prefix + [apt] + args, env=env, stdout=subprocess.DEVNULL).returncode != 0:
            return None
    return shutil.which("chromium")


def screenshot(chromium, url, png, size="640,480"):
    """Draws `url` to `png` in headless Chromium."""
    subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--force-color-profile=srgb",
            f"--window-size={size}",
            f"--screenshot={png}",
            url,
        ],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=120,
    )


def read_png(path):
    """(width, height, rows of RGB tuples) of an 8-bit RGB or RGBA PNG."""
    data = Path(path).read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"{path}: PNG kind {depth}/{colour}/{interlace} not handled")
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = previous[x]
            c = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + a) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + b) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pred) & 0xFF
        rows.append([tuple(line[i : i + 3]) for i in range(0, stride, channels)])
        previous = line
    return width, height, rows


def check_png(path):
    """Problems with a rendered picture: a palette colour missing, or a mostly blank page."""
    _, _, rows = read_png(path)
    counts = {name: 0 for name in COLOURS}
    drawn = total = 0
    for row in rows:
        for pixel in row:
            total += 1
            if pixel != (255, 255, 255):
                drawn += 1
            for name, colour in COLOURS.items():
                if all(abs(p - q) <= TOLERANCE for p, q in zip(pixel, colour)):
                    counts[name] += 1
    problems = [f"no {name} ({counts[name]} pixels)" for name in COLOURS if counts[name] < MIN_PIXELS]
    if drawn < total // 50:
        problems.append(f"mostly blank ({drawn} of {total} pixels drawn)")
    return problems, counts


def check_svg(path):
    """Problems with an SVG file as XML: a parse error or an id used twice."""
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        return [f"not XML: {e}"]
    problems = []
    if not root.tag.endswith("svg"):
        problems.append(f"root element {root.tag}")
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        problems.append(f"ids used twice: {twice}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=str(REPO / "target/release/bisolve"))
    parser.add_argument("--keep", help="write the pictures and PNGs here (default: a temporary folder)")
    args = parser.parse_args()
    chromium = find_chromium()
    if chromium is None:
        print("render_pictures: cannot find or install chromium (apt-get install chromium)", file=sys.stderr)
        return 2
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bisolve-render-"))
    work.mkdir(parents=True, exist_ok=True)
    demo = str(REPO / "levels/demo.xsb")
    run = lambda *a: subprocess.run([args.bin, *a], check=True, stdout=subprocess.DEVNULL, timeout=120)
    run(demo, "--level", "Warehouse", "--threads", "1", "--svg", str(work / "solved.svg"), "--gif", str(work / "solved.gif"))
    run("show", demo, "--level", "Warehouse", "--svg", str(work / "still.svg"))
    page = work / "gif.html"
    page.write_text('<html><body style="margin:0;background:#fff"><img src="solved.gif"></body></html>')
    pictures = [
        ("animated SVG", work / "solved.svg", work / "solved.svg"),
        ("still SVG", work / "still.svg", work / "still.svg"),
        ("GIF, first frame", work / "solved.gif", page),
    ]
    failed = 0
    for name, picture, shown in pictures:
        problems = check_svg(picture) if picture.suffix == ".svg" else []
        png = work / (picture.stem + picture.suffix.replace(".", "-") + ".png")
        screenshot(chromium, shown.as_uri(), png)
        more, counts = check_png(png)
        problems += more
        figures = ", ".join(f"{k} {v}" for k, v in counts.items())
        print(f"{name}: {'ok' if not problems else 'FAILED: ' + '; '.join(problems)} ({figures} pixels)")
        failed += bool(problems)
    if args.keep:
        print(f"pictures and PNGs in {work}")
    else:
        shutil.rmtree(work)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
