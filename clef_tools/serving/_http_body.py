"""Reading a request body within bounds: size (after decompression), time, encoding.

Official SDKs compress bodies of 1 KiB and more (`Content-Encoding: zstd` in TypeSafe's
Python SDK), so `serve` accepts zstd and gzip. The size limit applies to the body as the
parser will see it: a few kilobytes of zstd can expand to gigabytes, so decompression
stops one byte past the limit. A client that trickles its body is cut off at the
deadline instead of holding a connection and a buffer forever.
"""

from __future__ import annotations

import io
import zlib
from collections.abc import AsyncIterator

import anyio
import anyio.to_thread

__all__ = ["SUPPORTED_ENCODINGS", "BodyError", "read_body"]

SUPPORTED_ENCODINGS = ("identity", "gzip", "zstd")
#: zstd frames may ask for a window this large at most (the format allows 3.75 TB).
_MAX_ZSTD_WINDOW = 1 << 25


class BodyError(Exception):
    """The body cannot be accepted: `status`, an `error_type` and a message for the client."""

    def __init__(self, status: int, error_type: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.error_type = error_type


async def read_body(
    chunks: AsyncIterator[bytes],
    *,
    content_length: str | None,
    content_encoding: str | None,
    limit: int,
    timeout_s: float | None,
) -> bytes:
    """The decoded body, at most `limit` bytes, read within `timeout_s`."""
    encoding = (content_encoding or "identity").strip().lower()
    if encoding not in SUPPORTED_ENCODINGS:
        raise BodyError(
            415,
            "unsupported_media_type",
            f"Content-Encoding {encoding!r} is not supported; use one of "
            f"{', '.join(SUPPORTED_ENCODINGS)}",
        )
    if content_length is not None and content_length.isdigit() and int(content_length) > limit:
        raise _too_large(limit)
    raw = bytearray()
    try:
        with anyio.fail_after(timeout_s):
            async for chunk in chunks:
                raw += chunk
                if len(raw) > limit:
                    raise _too_large(limit)
    except TimeoutError:
        raise BodyError(
            408, "timeout", f"the request body did not arrive within {timeout_s} s"
        ) from None
    if encoding == "identity":
        return bytes(raw)
    return await anyio.to_thread.run_sync(_decompress, bytes(raw), encoding, limit)


def _decompress(data: bytes, encoding: str, limit: int) -> bytes:
    import zstandard

    try:
        if encoding == "gzip":
            inflater = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
            out = inflater.decompress(data, limit + 1)
            if len(out) > limit or inflater.unconsumed_tail:
                raise _too_large(limit, decoded=True)
            if not inflater.eof:
                raise BodyError(400, "invalid_request", "the gzip body is truncated")
            return out
        reader = zstandard.ZstdDecompressor(max_window_size=_MAX_ZSTD_WINDOW).stream_reader(
            io.BytesIO(data), read_across_frames=True
        )
        out = reader.read(limit + 1)
        if len(out) > limit:
            raise _too_large(limit, decoded=True)
        return out
    except (zlib.error, zstandard.ZstdError) as exc:
        raise BodyError(400, "invalid_request", f"the {encoding} body is corrupt: {exc}") from exc


def _too_large(limit: int, decoded: bool = False) -> BodyError:
    what = "decompressed request body" if decoded else "request body"
    return BodyError(413, "tokens_exceeded", f"{what} over {limit} bytes")
