"""The first schema: tables, seats, the append-only action log with its unique
(code, seq) key, and score pads (what ``metadata.create_all`` made before).

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("finished", sa.Float),
        sa.Column("next_code", sa.String(16)),
    )
    op.create_table(
        "seats",
        sa.Column("code", sa.String(16), sa.ForeignKey("tables.code"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("level", sa.String(16)),
        sa.Column("name", sa.String(64)),
        sa.Column("token_hash", sa.String(64)),
        sa.Column("auto_pass", sa.Boolean, nullable=False),
    )
    op.create_table(
        "actions",
        sa.Column("code", sa.String(16), sa.ForeignKey("tables.code"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.JSON, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.UniqueConstraint("code", "seq", name="one_action_per_version"),
    )
    op.create_table(
        "pads",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
    )


def downgrade() -> None:
    for name in ("pads", "actions", "seats", "tables"):
        op.drop_table(name)
