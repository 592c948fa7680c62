"""`pickwise models …`: train Pickwise's own models (the gate cross-encoder and the
relevance cross-encoder item_search orders by)."""

from __future__ import annotations

import typer

from app.cli._output import emit_json
from app.config import get_settings
from app.recall.relevance_training import relevance_config, train_relevance
from app.recall.reranker_training import RerankerTrainConfig, train_reranker

__all__ = ["app", "train_relevance_cmd", "train_reranker_cmd"]

app = typer.Typer(help="Train Pickwise's own models.", no_args_is_help=True)


@app.callback()
def _group() -> None:
    """Train Pickwise's own models."""


@app.command("train-reranker")
def train_reranker_cmd(
    small: bool = typer.Option(False, "--small", help="The quick test configuration."),
    force: bool = typer.Option(False, "--force", help="Retrain even when the model exists."),
    json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    seed: int | None = typer.Option(None, help="Override the seed."),
    epochs: int | None = typer.Option(None, min=1, help="Override the number of epochs."),
    layers: int | None = typer.Option(None, min=1, max=6, help="Encoder layers to keep."),
    max_length: int | None = typer.Option(None, min=16, max=512, help="Tokens per pair."),
) -> None:
    """Fine-tune the cross-encoder gate on real pairs; the same data and config reuse the
    existing `var/models/reranker-<hash>/`. Prints pair counts, timings and held-out AUC."""
    config = RerankerTrainConfig.small() if small else RerankerTrainConfig.default()
    overrides = {"seed": seed, "epochs": epochs, "layers": layers, "max_length": max_length}
    config = config.replace(**{k: v for k, v in overrides.items() if v is not None})
    report = train_reranker(get_settings(), config, show_progress=not json_out, force=force)
    if json_out:
        emit_json(report.as_dict())
        return
    for line in report.summary_lines():
        typer.echo(line)
    floor = get_settings().reranker_min_auc
    if report.heldout_auc < floor:
        typer.echo(
            f"under RERANKER_MIN_AUC {floor}: the relevance gate stays off rather than use it",
            err=True,
        )


@app.command("train-relevance")
def train_relevance_cmd(
    force: bool = typer.Option(False, "--force", help="Retrain even when the model exists."),
    json_out: bool = typer.Option(False, "--json", help="Print the training record as JSON."),
    seed: int | None = typer.Option(None, help="Override the seed."),
    epochs: int | None = typer.Option(None, min=1, help="Override the number of epochs."),
) -> None:
    """Fine-tune the relevance cross-encoder on the blind-rated training labels (queries held
    apart from the evaluation); the same labels and config reuse `var/models/relevance-<hash>/`."""
    overrides = {"seed": seed, "epochs": epochs}
    config = relevance_config().replace(**{k: v for k, v in overrides.items() if v is not None})
    report = train_relevance(get_settings(), config, show_progress=not json_out, force=force)
    if json_out:
        emit_json(dict(report.record))
        return
    for line in report.summary_lines():
        typer.echo(line)
