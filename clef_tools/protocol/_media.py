"""Images inside a state: find them, take them out, hand their bytes to a multimodal backend.

States carry images the way chat APIs do — LangChain's `{"type": "image", "base64": …}`,
OpenAI's `image_url` parts, Anthropic's `source` blocks — and only there: as parts of a
message's content (a transcript, or one message), or as items of a state that is itself a
list of content parts (OpenRouter's shape). Anywhere else a `{"type": "file", …}` is data:
tool-call arguments such as `attachments=[{"type": "file", "file_id": "19"}]` are judged as
JSON, never refused as media. Multimodal backends want images separately (Workers AI's
`images` field, the Clef release's processor), so this module lifts them out and leaves
the text where it was. Remote URLs are refused, never fetched: a decision in the request
path must not make an unplanned network call.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from clef_tools.protocol._errors import RequestValidationError, UnsupportedInputError
from clef_tools.protocol._image_header import read_header
from clef_tools.protocol._limits import MAX_IMAGE_PIXELS, MAX_IMAGES
from clef_tools.protocol._render import is_transcript, to_jsonable

__all__ = [
    "IMAGE_TYPES",
    "MEDIA_TYPES",
    "StateImage",
    "first_media",
    "media_parts",
    "split_images",
]

IMAGE_TYPES = frozenset({"image", "image_url", "input_image"})
OTHER_MEDIA_TYPES = frozenset({"audio", "video", "file", "input_audio", "input_file"})
MEDIA_TYPES = IMAGE_TYPES | OTHER_MEDIA_TYPES
_MIME_ALLOWED = frozenset({"image/png", "image/jpeg", "image/webp"})

Loc = tuple[str | int, ...]


@dataclass(frozen=True)
class StateImage:
    """One image lifted out of the state, with where it was (for error messages)."""

    mime_type: str
    base64_data: str
    loc: Loc

    @property
    def data_uri(self) -> str:
        return f"data:{self.mime_type};base64,{self.base64_data}"

    def to_bytes(self) -> bytes:
        return base64.b64decode(self.base64_data, validate=True)


def media_parts(state: object, loc: Loc = ("state",)) -> Iterator[tuple[Loc, Mapping[str, Any]]]:
    """Every image/audio/video/file content part, where chat APIs put them, in order."""
    return _media_parts(to_jsonable(state), loc)


def _media_parts(value: Any, loc: Loc) -> Iterator[tuple[Loc, Mapping[str, Any]]]:
    if isinstance(value, Mapping) and is_transcript([value]):
        yield from _parts(value.get("content"), (*loc, "content"))
    elif is_transcript(value):
        for i, message in enumerate(value):
            yield from _parts(message.get("content"), (*loc, i, "content"))
    elif isinstance(value, list) and value and all(_is_part(v) for v in value):
        yield from _parts(value, loc)


def _is_part(value: object) -> bool:
    return isinstance(value, Mapping) and isinstance(value.get("type"), str)


def _parts(content: object, loc: Loc) -> Iterator[tuple[Loc, Mapping[str, Any]]]:
    if not isinstance(content, list):
        return
    for j, part in enumerate(content):
        kind = part.get("type") if isinstance(part, Mapping) else None
        if isinstance(kind, str) and kind in MEDIA_TYPES:
            yield (*loc, j), part


def first_media(state: object, loc: Loc = ("state",)) -> Loc | None:
    """Where the first media part is, or None for a text-only state."""
    return next((where for where, _ in media_parts(state, loc)), None)


def split_images(state: object, loc: Loc = ("state",)) -> tuple[Any, list[StateImage]]:
    """`(state without its image parts, images in reading order)`.

    Raises `UnsupportedInputError` for remote URLs and non-image media, and
    `RequestValidationError` for more than `MAX_IMAGES` images or bad image data.
    """
    value = to_jsonable(state)
    found = list(_media_parts(value, loc))
    if not found:
        return value, []
    images: list[StateImage] = []
    for where, part in found:
        if part.get("type") not in IMAGE_TYPES:
            raise UnsupportedInputError(
                ".".join(map(str, where)),
                f"{part.get('type')} blocks are not supported; only images are",
            )
        images.append(_image(part, where))
    if len(images) > MAX_IMAGES:
        raise RequestValidationError.at(
            images[MAX_IMAGES].loc,
            f"at most {MAX_IMAGES} images per request; this state has {len(images)}",
            "too_many_images",
        )
    removed = {where[len(loc) :] for where, _ in found}
    return _without(value, (), removed), images


def _without(value: Any, at: Loc, removed: set[Loc]) -> Any:
    """A copy of `value` without the parts at the `removed` paths (relative to the state)."""
    if isinstance(value, Mapping):
        return {k: _without(v, (*at, k), removed) for k, v in value.items()}
    if isinstance(value, list):
        return [
            _without(v, (*at, i), removed) for i, v in enumerate(value) if (*at, i) not in removed
        ]
    return value


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
