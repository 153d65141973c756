"""The coach's reviews: one per table and seat, kept with the game.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("code", sa.String(16), sa.ForeignKey("tables.code"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("made", sa.Float, nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("reviews")
