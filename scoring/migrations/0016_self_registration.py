"""Online self-registration for a tournament (issue 24, item 4)."""

import django.core.validators
import django.db.models.deletion
from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

import scoring.models


def keys(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """Every tournament that exists gets its own unguessable registration key."""
    tournaments = apps.get_model("scoring", "Tournament")
    for tournament in tournaments.objects.filter(signup_key=None):
        tournament.signup_key = scoring.models.new_board_key()
        tournament.save(update_fields=["signup_key"])


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0015_import_checked'),
    ]

    operations = [
        migrations.AddField(
            model_name='entrant',
            name='online',
            field=models.BooleanField(default=False, verbose_name='registered online'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='signup_closes',
            field=models.DateTimeField(blank=True, null=True, verbose_name='online registration closes'),
        ),
        # each existing tournament its own key: a callable default on AddField would give
        # every row the same one (and the unique index would refuse it)
        migrations.AddField(
            model_name='tournament',
            name='signup_key',
            field=models.CharField(max_length=24, null=True, verbose_name='registration key'),
        ),
        migrations.RunPython(keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='tournament',
            name='signup_key',
            field=models.CharField(default=scoring.models.new_board_key, max_length=24, unique=True, verbose_name='registration key'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='signup_limit',
            field=models.PositiveIntegerField(blank=True, null=True, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(10000)], verbose_name='maximum number of entrants'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='signup_open',
            field=models.BooleanField(default=False, verbose_name='online registration'),
        ),
        migrations.CreateModel(
            name='Signup',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('token', models.CharField(default=scoring.models.new_signup_token, max_length=64, unique=True, verbose_name='token')),
                ('name', models.CharField(max_length=100, verbose_name='name')),
                ('email', models.EmailField(max_length=254, verbose_name='e-mail address')),
                ('home_club', models.CharField(blank=True, max_length=100, verbose_name='home club')),
                ('category', models.CharField(blank=True, max_length=40, verbose_name='category')),
                ('team', models.CharField(blank=True, max_length=60, verbose_name='team')),
                ('tandem', models.CharField(blank=True, max_length=60, verbose_name='tandem')),
                ('created', models.DateTimeField(auto_now_add=True, verbose_name='registered')),
                ('expires', models.DateTimeField(db_index=True, verbose_name='expires')),
                ('confirmed', models.DateTimeField(blank=True, null=True, verbose_name='confirmed')),
                ('entrant', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='signup', to='scoring.entrant', verbose_name='entrant')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='signups', to='scoring.tournament', verbose_name='tournament')),
            ],
            options={
                'verbose_name': 'online registration',
                'verbose_name_plural': 'online registrations',
                'ordering': ['tournament', 'created'],
                'constraints': [models.UniqueConstraint(fields=('tournament', 'email'), name='signup_once_per_email')],
            },
        ),
    ]
