"""Each stroke's drum told by its sound: by the kit's samples when the strokes sound like them,
else by two groups of their own sound (the lower 鼙); and the onsets that sound like the kit's
count sound."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from drumscore.i18n import _, ngettext
from drumscore.model import Drum
from drumscore.performance.bands import band_centres, bands_of, shapes, stroke_length
from drumscore.performance.onsets import HOLD_MS, PEAK_SECONDS, attack
from drumscore.render.kit import Kit

#: How the drums of a recording are told apart: "kit" by the kit's samples when the strokes
#: sound like them, else by their own two sounds; "split" always by their own two sounds.
DRUM_METHODS = ("kit", "split")
#: A drum told with less than this margin between the two is marked doubtful.
DOUBT_MARGIN = 0.1
#: The strokes sound like the kit when their median distance (dB, the RMS over the bands of the
#: difference of spectral shapes) to the nearest kit sample is within this.
KIT_DISTANCE_DB = 1.5
#: Two groups of strokes are two drums when their means stand at least SEPARATION times the
#: strokes' spread within a group apart; a stroke within DOUBT_SHARE of half that distance of
#: the middle is doubtful.
SEPARATION = 4.0
DOUBT_SHARE = 0.3


def kit_bands(kit: Kit, rate: int) -> tuple[list[Drum], np.ndarray]:
    """The drum and band energies of every sample of the kit (each layer, each round-robin
    sample) at `rate`, judged from the sample's own attack as a stroke of a recording is."""
    kit = kit.at_rate(rate)
    drums: list[Drum] = []
    sounds: list[np.ndarray] = []
    for drum in Drum:
        for layer in kit.voice(drum).layers:
            for sample in layer.samples:
                sounds.append(sample.data.mean(axis=1))
                drums.append(drum)
    return drums, _sound_bands(sounds, rate)


def count_bands(
    kit: Kit, rate: int, click_velocity: int | None
) -> tuple[np.ndarray, list[Drum], np.ndarray]:
    """The band energies of the kit's count sound (every sample of it), and when a take has
    clicks at `click_velocity`, the drum and band energies of each drum's samples (at its
    default velocity) sounding with a click, at the levels a render mixes them at
    (render.mix.SoundChooser): a stroke heard with its click."""
    from drumscore.conductor.expression import default_velocity
    from drumscore.conductor.track import COUNT_VELOCITY

    kit = kit.at_rate(rate)
    voice = kit.count_voice().at_rate(rate)
    counts = [s.data.mean(axis=1) for layer in voice.layers for s in layer.samples]
    drums: list[Drum] = []
    mixed: list[np.ndarray] = []
    if click_velocity is not None:
        layer = voice.layer_for(click_velocity)
        gain = click_velocity / COUNT_VELOCITY
        clicks = [
            voice.sample_for(n, click_velocity).mean(axis=1) * gain
            for n in range(len(layer.samples))
        ]
        for drum in Drum:
            own = kit.voice(drum)
            velocity = default_velocity(drum)
            for n in range(len(own.layer_for(velocity).samples)):
                sound = own.sample_for(n, velocity).mean(axis=1)
                for click in clicks:
                    both = np.zeros(max(len(sound), len(click)), dtype=np.float32)
                    both[: len(sound)] += sound
                    both[: len(click)] += click
                    mixed.append(both)
                    drums.append(drum)
    bands = _sound_bands(counts + mixed, rate)
    return bands[: len(counts)], drums, bands[len(counts) :]


def _sound_bands(sounds: Sequence[np.ndarray], rate: int) -> np.ndarray:
    """The band energies of mono sounds at `rate`, each judged as a stroke of a recording is
    (strokes_at, stroke_bands): placed after silence, its attack found by attack over the
    same milliseconds, its first samples taken after it and those before it (up to the
    attack) as what sounded before the stroke. So a recording of the sound alone gives the
    same energies."""
    size = stroke_length(rate)
    width = max(1, round(rate / 1000))
    lead = max(size, (HOLD_MS + 2) * width)
    pieces = np.zeros((len(sounds), 2 * size), dtype=np.float32)
    for k, mono in enumerate(sounds):
        span = np.zeros(lead + max(len(mono), round(PEAK_SECONDS * rate)) + size, np.float32)
        span[lead : lead + len(mono)] = mono
        start = attack(span, lead, lead + 2 * width, width).start
        pieces[k] = span[start - size : start + size]
    return bands_of(pieces, rate)


@dataclass(frozen=True, slots=True)
class Told:
    """The drums of a recording's strokes, and how they were told; `counts` marks the onsets
    that sound like the count sound (a count stroke or a click), left out of the telling."""

    drums: list[Drum]
    doubtful: list[bool]
    how: str
    swappable: bool
    notes: tuple[str, ...] = ()
    apart: bool = True
    counts: list[bool] = field(default_factory=list)


def tell_drums(
    bands: np.ndarray,
    rate: int,
    kit: Kit,
    method: str,
    *,
    count_sound: bool = False,
    click_velocity: int | None = None,
) -> Told:
    """Each stroke's drum: by the kit when `method` is "kit" and the strokes sound like it (their
    median distance to the nearest kit sample within KIT_DISTANCE_DB), else by two groups of
    their own sound, the lower 鼙 (the check may swap the names to fit the score).

    With `count_sound` (the take holds count strokes or clicks), the onsets that sound like the
    kit's count sound are marked and left out; with `click_velocity` (its clicks' velocity),
    a stroke is also compared with each drum sounding with a click (see count_bands)."""
    heard = shapes(bands)
    n = len(heard)
    counts = np.zeros(n, dtype=bool)
    drums, templates = kit_bands(kit, rate)
    known = shapes(templates)
    notes: tuple[str, ...] = ()
    if count_sound:
        count, mixed_drums, mixed = count_bands(kit, rate, click_velocity)
        drums, known = drums + mixed_drums, np.concatenate([known, shapes(mixed)])
        counts = like_count(heard, known, shapes(count))
        if counts.any():
            notes = (
                ngettext(
                    "{n} onset sounds like the count sound of {kit} (a count stroke or a "
                    "click): not one of the drums",
                    "{n} onsets sound like the count sound of {kit} (count strokes or clicks): "
                    "not the drums",
                    int(counts.sum()),
                ).format(n=int(counts.sum()), kit=kit.described),
            )
    strokes = ~counts
    if method == "kit":
        named, doubtful, nearest = by_kit(heard, drums, known)
        distance = float(np.median(nearest[strokes])) if strokes.any() else 0.0
        if distance <= KIT_DISTANCE_DB:
            how = _("the drums told by the sound of {kit}").format(kit=kit.described)
            return Told(named, doubtful, how, False, notes, True, counts.tolist())
        how = _(
            "the drums told by two groups of the strokes' own sound, the lower 鼙 and the higher "
            "鼓, as they do not sound like {kit}"
        ).format(kit=kit.described)
    else:
        how = _(
            "the drums told by two groups of the strokes' own sound, the lower 鼙 and the higher 鼓"
        )
    some, unsure, more, apart = by_groups(heard[strokes], bands[strokes], rate)
    named, doubtful = [Drum.GU] * n, [False] * n
    for k, drum, doubt in zip(np.flatnonzero(strokes), some, unsure, strict=True):
        named[k], doubtful[k] = drum, doubt
    return Told(named, doubtful, how, True, (*notes, *more), apart, counts.tolist())


def like_count(heard: np.ndarray, known: np.ndarray, count: np.ndarray) -> np.ndarray:
    """Which strokes sound like the count sound: nearer one of its samples (`count`, spectral
    shapes) than any drum's (`known`), and within KIT_DISTANCE_DB of it."""
    to_count = np.linalg.norm(heard[:, None, :] - count[None, :, :], axis=2).min(axis=1)
    to_drum = np.linalg.norm(heard[:, None, :] - known[None, :, :], axis=2).min(axis=1)
    close = to_count / math.sqrt(heard.shape[1]) <= KIT_DISTANCE_DB
    return np.asarray(close & (to_count < to_drum))


def by_kit(
    heard: np.ndarray, drums: list[Drum], known: np.ndarray
) -> tuple[list[Drum], list[bool], np.ndarray]:
    """Each stroke's drum: that of the kit sample whose spectral shape is nearest; doubtful
    where the other drum is nearly as near; and each stroke's distance (dB) to the kit."""
    distance = np.linalg.norm(heard[:, None, :] - known[None, :, :], axis=2)
    kinds = np.asarray([d is Drum.PI for d in drums])
    to_pi = distance[:, kinds].min(axis=1)
    to_gu = distance[:, ~kinds].min(axis=1)
    named = [Drum.PI if p <= g else Drum.GU for p, g in zip(to_pi, to_gu, strict=True)]
    margin = np.abs(to_pi - to_gu) / np.maximum(to_pi + to_gu, 1e-12)
    nearest = np.minimum(to_pi, to_gu) / math.sqrt(heard.shape[1])
    return named, [bool(m < DOUBT_MARGIN) for m in margin], nearest


def _two_means_1d(value: np.ndarray) -> float:
    """The cut that splits sorted values in two groups of least squares (2-means in one
    dimension)."""
    order = np.sort(value)
    n = len(order)
    prefix = np.cumsum(order)
    squares = np.cumsum(order**2)
    k = np.arange(1, n)
    low_sse = squares[:-1] - prefix[:-1] ** 2 / k
    high_sum = prefix[-1] - prefix[:-1]
    high_sse = (squares[-1] - squares[:-1]) - high_sum**2 / (n - k)
    cut = int(np.argmin(low_sse + high_sse)) + 1
    return float((order[cut - 1] + order[cut]) / 2)


def group_notes() -> tuple[str, str]:
    """The notes by_groups gives when it cannot tell the drums apart: the strokes all sound
    alike; they do not fall into two clearly different sounds."""
    return (
        _(
            "the strokes all sound alike: their drums cannot be told apart, and none is called "
            "wrong"
        ),
        _(
            "the strokes do not fall into two clearly different sounds: their drums cannot be "
            "told apart, and none is called wrong"
        ),
    )


def by_groups(
    heard: np.ndarray, bands: np.ndarray, rate: int
) -> tuple[list[Drum], list[bool], tuple[str, ...], bool]:
    """Each stroke's drum from two groups of their spectral shapes (2-means, started from the
    best split along their main direction of difference): the group of the lower spectral
    centroid 鼙. A stroke near the middle of the two is doubtful; when the groups are not clearly
    apart (SEPARATION) every stroke is, and the drums are not told at all."""
    n = len(heard)
    alike = (group_notes()[0],)
    if n < 4:
        return [Drum.GU] * n, [True] * n, alike, False
    centred = heard - heard.mean(axis=0)
    # the main direction: the covariance's top eigenvector (BANDS × BANDS, cheap at any length)
    direction = np.linalg.eigh(centred.T @ centred)[1][:, -1]
    along = centred @ direction
    if float(np.ptp(along)) == 0.0:
        return [Drum.GU] * n, [True] * n, alike, False
    high = along > _two_means_1d(along)
    for _round in range(20):
        if high.all() or not high.any():
            break
        a, b = heard[~high].mean(axis=0), heard[high].mean(axis=0)
        new = np.linalg.norm(heard - b, axis=1) < np.linalg.norm(heard - a, axis=1)
        if np.array_equal(new, high):
            break
        high = new
    if high.sum() < 2 or (~high).sum() < 2:
        return [Drum.GU] * n, [True] * n, alike, False
    a, b = heard[~high].mean(axis=0), heard[high].mean(axis=0)
    axis = (b - a) / np.linalg.norm(b - a)
    z = heard @ axis
    za, zb = z[~high], z[high]
    spread = math.sqrt((za.var() * len(za) + zb.var() * len(zb)) / n) + 1e-9
    if (zb.mean() - za.mean()) < SEPARATION * spread:
        return [Drum.GU] * n, [True] * n, (group_notes()[1],), False
    centres = band_centres(rate)
    power = bands / np.maximum(bands.sum(axis=1, keepdims=True), 1e-30)
    brightness = power @ centres
    high_is_higher = float(brightness[high].mean()) > float(brightness[~high].mean())
    named = [Drum.GU if (h == high_is_higher) else Drum.PI for h in high.tolist()]
    middle = (za.mean() + zb.mean()) / 2
    half = (zb.mean() - za.mean()) / 2
    return named, [bool(abs(v - middle) < DOUBT_SHARE * half) for v in z], (), True


#: Each drum's sound learnt from the strokes of the score (by_score): the spread within the
#: drums is shrunk this share of the way to the same in every band (few strokes, many bands).
SHRINK = 0.8
#: ...and the strokes are told so only when each half of them, told by the other half's
#: drums, agrees with the score this often (a stroke played on the other drum does not).
SCORE_AGREEMENT = 0.8
#: Each drum needs at least this many strokes of the score to learn its sound from.
SCORE_STROKES = 4


def by_score(
    colours: np.ndarray, drums: Sequence[Drum | None]
) -> tuple[list[Drum], list[bool]] | None:
    """Each stroke's drum from the sound of each drum learnt from the strokes aligned to the
    score (`drums`: the score's drum of each stroke, None for one the score does not have): a
    two-class discriminant of the strokes' colours (Fisher's, its spread shrunk by SHRINK),
    fitted again without the strokes it tells otherwise than the score (those played on the
    other drum). None when the strokes' sound does not follow the score's drums: each half of
    them told by the other half agrees with the score less than SCORE_AGREEMENT of the time,
    or a drum has fewer than SCORE_STROKES strokes. A stroke within DOUBT_SHARE of half the
    distance between the drums of the middle is doubtful."""
    known = np.asarray([k for k, d in enumerate(drums) if d is not None], dtype=np.int64)
    if len(known) == 0:
        return None
    labels = np.asarray([drums[k] is Drum.PI for k in known])
    if min(int(labels.sum()), int((~labels).sum())) < SCORE_STROKES:
        return None
    heard = colours[known]
    agree = np.zeros(len(known), dtype=bool)
    for half in (0, 1):
        held = np.arange(len(known)) % 2 == half
        fit = _discriminant(heard[~held], labels[~held])
        if fit is None:
            return None
        agree[held] = (heard[held] @ fit[0] > fit[1]) == labels[held]
    if agree.mean() < SCORE_AGREEMENT:
        return None
    use = np.ones(len(known), dtype=bool)
    fit = _discriminant(heard, labels)
    for _round in range(3):
        if fit is None:
            return None
        said = heard @ fit[0] > fit[1]
        keep = said == labels
        if np.array_equal(keep, use) or keep.sum() < 2 * SCORE_STROKES:
            break
        use = keep
        fit = _discriminant(heard[use], labels[use])
    if fit is None:
        return None
    w, middle = fit
    z = colours @ w
    pi, gu = float(np.mean(z[known[labels]])), float(np.mean(z[known[~labels]]))
    half_way = abs(pi - gu) / 2
    named = [Drum.PI if v > middle else Drum.GU for v in z]
    return named, [bool(abs(v - middle) < DOUBT_SHARE * half_way) for v in z]


def _discriminant(heard: np.ndarray, pi: np.ndarray) -> tuple[np.ndarray, float] | None:
    """Fisher's direction from the 鼓 strokes' colours to the 鼙 ones' (`pi` marks them), its
    within-drum spread shrunk by SHRINK, and the point half way between their means along it;
    None without strokes of each drum."""
    a, b = heard[~pi], heard[pi]
    if len(a) < 2 or len(b) < 2:
        return None
    ma, mb = a.mean(axis=0), b.mean(axis=0)
    spread = ((a - ma).T @ (a - ma) + (b - mb).T @ (b - mb)) / len(heard)
    size = float(np.trace(spread)) / len(spread)
    spread = (1 - SHRINK) * spread + SHRINK * max(size, 1e-12) * np.eye(len(spread))
    w = np.linalg.solve(spread, mb - ma)
    return w, float((ma + mb) @ w / 2)
