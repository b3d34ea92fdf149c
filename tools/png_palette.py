#!/usr/bin/env python3
"""Shrinks a PNG for the README: converts an 8-bit RGB/RGBA PNG to a 256-colour indexed PNG.

    python3 tools/png_palette.py IN.png OUT.png [COLOURS]

Pure Python (no Pillow): decodes the PNG, picks a palette by median cut over a 5-bit-per-channel
histogram, maps every pixel to its nearest palette colour and writes an indexed PNG at the best
zlib level. A rendered scene of many small shaded objects shrinks to roughly a third.
"""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, header = 8, [], None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise SystemExit(f"{path}: only 8-bit, non-interlaced RGB or RGBA PNGs are supported")
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        ftype = raw[start]
        line = bytearray(raw[start + 1:start + 1 + stride])
        if ftype == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif ftype == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif ftype == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif ftype == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append(line)
        prev = line
    pixels = []
    for line in rows:
        for x in range(0, stride, bpp):
            pixels.append((line[x], line[x + 1], line[x + 2]))
    return width, height, pixels


def median_cut(histogram, colours):
    """histogram: {(r, g, b) 5-bit: count}. Returns a list of (r, g, b) 8-bit colours."""
    boxes = [list(histogram.items())]
    while len(boxes) < colours:
        # Split the box with the most pixels times its widest channel range.
        best, best_score, best_axis = None, -1, 0
        for i, box in enumerate(boxes):
            if len(box) < 2:
                continue
            ranges = [max(c[0][k] for c in box) - min(c[0][k] for c in box) for k in range(3)]
            axis = ranges.index(max(ranges))
            score = ranges[axis] * sum(n for _, n in box)
            if score > best_score:
                best, best_score, best_axis = i, score, axis
        if best is None:
            break
        box = sorted(boxes.pop(best), key=lambda c: c[0][best_axis])
        total, acc, cut = sum(n for _, n in box), 0, 1
        for j, (_, n) in enumerate(box):
            acc += n
            if acc >= total / 2:
                cut = min(max(j + 1, 1), len(box) - 1)
                break
        boxes += [box[:cut], box[cut:]]
    palette = []
    for box in boxes:
        total = sum(n for _, n in box)
        palette.append(tuple(
            min(255, round(sum(((c[k] << 3) | 4) * n for c, n in box) / total)) for k in range(3)))
    return palette


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    src, dst = sys.argv[1], sys.argv[2]
    colours = int(sys.argv[3]) if len(sys.argv) > 3 else 256
    width, height, pixels = read_png(src)
    histogram = {}
    for r, g, b in pixels:
        key = (r >> 3, g >> 3, b >> 3)
        histogram[key] = histogram.get(key, 0) + 1
    palette = median_cut(histogram, colours)
    nearest = {}
    out = bytearray()
    for y in range(height):
        out.append(0)
        for r, g, b in pixels[y * width:(y + 1) * width]:
            key = (r >> 2, g >> 2, b >> 2)
            index = nearest.get(key)
            if index is None:
                cr, cg, cb = (key[0] << 2) | 2, (key[1] << 2) | 2, (key[2] << 2) | 2
                index = min(range(len(palette)), key=lambda i: (palette[i][0] - cr) ** 2
                            + (palette[i][1] - cg) ** 2 + (palette[i][2] - cb) ** 2)
                nearest[key] = index
            out.append(index)
    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0))
    png += chunk(b"PLTE", b"".join(bytes(c) for c in palette))
    png += chunk(b"IDAT", zlib.compress(bytes(out), 9))
    png += chunk(b"IEND", b"")
    open(dst, "wb").write(png)


if __name__ == "__main__":
    main()
