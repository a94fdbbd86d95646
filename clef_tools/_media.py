"""Images inside a state: find them, take them out, hand their bytes to a multimodal backend.

States carry images the way chat APIs do — LangChain's `{"type": "image", "base64": …}`,
OpenAI's `image_url` parts, Anthropic's `source` blocks. Multimodal backends want them
separately (Workers AI's `images` field, the Clef release's processor), so this module
lifts them out and leaves the text where it was. Remote URLs are refused, never fetched:
a decision in the request path must not make an unplanned network call.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from clef_tools._errors import RequestValidationError, UnsupportedInputError
from clef_tools._image_header import read_header
from clef_tools._limits import MAX_IMAGE_PIXELS, MAX_IMAGES
from clef_tools._render import to_jsonable

__all__ = ["StateImage", "count_images", "split_images"]

_IMAGE_TYPES = frozenset({"image", "image_url", "input_image"})
_OTHER_MEDIA = frozenset({"audio", "video", "file", "input_audio", "input_file"})
_MIME_ALLOWED = frozenset({"image/png", "image/jpeg", "image/webp"})


@dataclass(frozen=True)
class StateImage:
    """One image lifted out of the state, with where it was (for error messages)."""

    mime_type: str
    base64_data: str
    loc: tuple[str | int, ...]

    @property
    def data_uri(self) -> str:
        return f"data:{self.mime_type};base64,{self.base64_data}"

    def to_bytes(self) -> bytes:
        return base64.b64decode(self.base64_data, validate=True)


def split_images(
    state: object, loc: tuple[str | int, ...] = ("state",)
) -> tuple[Any, list[StateImage]]:
    """`(state without image blocks, images in reading order)`.

    Raises `UnsupportedInputError` for remote URLs and non-image media, and
    `RequestValidationError` for more than `MAX_IMAGES` images or undecodable data.
    """
    images: list[StateImage] = []
    stripped = _strip(to_jsonable(state), loc, images)
    if len(images) > MAX_IMAGES:
        raise RequestValidationError.at(
            images[MAX_IMAGES].loc,
            f"at most {MAX_IMAGES} images per request; this state has {len(images)}",
            "too_many_images",
        )
    return stripped, images


def count_images(state: object) -> int:
    """Image blocks anywhere in a state (a cheap walk, no decoding)."""
    return _count(to_jsonable(state))


def _count(value: Any) -> int:
    if isinstance(value, Mapping):
        if value.get("type") in _IMAGE_TYPES:
            return 1
        return sum(_count(v) for v in value.values())
    if isinstance(value, Sequence) and not isinstance(value, str):
        return sum(_count(v) for v in value)
    return 0


def _strip(value: Any, loc: tuple[str | int, ...], images: list[StateImage]) -> Any:
    if isinstance(value, Mapping):
        kind = value.get("type")
        if kind in _IMAGE_TYPES:
            images.append(_image(value, loc))
            return _REMOVED
        if kind in _OTHER_MEDIA:
            raise UnsupportedInputError(
                ".".join(map(str, loc)), f"{kind} blocks are not supported; only images are"
            )
        out = {}
        for key, item in value.items():
            kept = _strip(item, (*loc, key), images)
            if kept is not _REMOVED:
                out[key] = kept
        return out
    if isinstance(value, Sequence) and not isinstance(value, str):
        items = [_strip(item, (*loc, i), images) for i, item in enumerate(value)]
        return [item for item in items if item is not _REMOVED]
    return value


_REMOVED: Any = object()


def _image(block: Mapping[str, Any], loc: tuple[str | int, ...]) -> StateImage:
    path = ".".join(map(str, loc))
    source = block.get("source")
    if isinstance(source, Mapping) and source.get("type") == "base64":  # Anthropic
        return _checked(str(source.get("media_type", "")), str(source.get("data", "")), loc)
    if "base64" in block:  # LangChain v1 standard block
        return _checked(str(block.get("mime_type", "")), str(block["base64"]), loc)
    url = block.get("url") or block.get("image_url")
    if isinstance(url, Mapping):  # OpenAI {"image_url": {"url": ...}}
        url = url.get("url")
    if isinstance(url, str) and url.startswith("data:"):
        header, _, data = url.partition(",")
        if not header.endswith(";base64"):
            raise UnsupportedInputError(path, "data URIs must be base64-encoded")
        return _checked(header[5:].removesuffix(";base64"), data, loc)
    if isinstance(url, str):
        raise UnsupportedInputError(
            path,
            "remote image URLs are not fetched; send the image as a data URI or base64 block",
        )
    raise UnsupportedInputError(path, "an image block needs base64 data or a data URI")


def _checked(mime: str, data: str, loc: tuple[str | int, ...]) -> StateImage:
    mime = mime.lower()
    if mime == "image/jpg":
        mime = "image/jpeg"
    if mime not in _MIME_ALLOWED:
        raise UnsupportedInputError(
            ".".join(map(str, loc)), f"image type {mime or 'unknown'!r}; use PNG, JPEG or WebP"
        )
    try:
        raw = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise RequestValidationError.at(loc, f"image data is not valid base64: {exc}") from exc
    header = read_header(raw)
    if header is None:
        raise RequestValidationError.at(
            loc, f"the data is not a {mime.removeprefix('image/').upper()} image", "invalid_image"
        )
    actual, width, height = header
    if actual != mime:
        raise RequestValidationError.at(
            loc, f"labelled {mime} but the data is {actual}", "invalid_image"
        )
    if width * height > MAX_IMAGE_PIXELS or width == 0 or height == 0:
        raise RequestValidationError.at(
            loc,
            f"{width}×{height} pixels; images may have at most {MAX_IMAGE_PIXELS} pixels",
            "too_large",
        )
    return StateImage(mime, data, loc)
