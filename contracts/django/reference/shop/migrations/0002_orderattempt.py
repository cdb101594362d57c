# One order per checkout attempt (contracts/README.md, "One order per checkout").

from django.db import migrations, models
import django.utils.timezone
import rest_framework.utils.encoders


class Migration(migrations.Migration):

    dependencies = [
        ('shop', '0001_initial'),
    ]

    operations = [
        migrations.CreateModel(
            name='OrderAttempt',
            fields=[
                ('id', models.AutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('visitor', models.CharField(max_length=60)),
                ('key', models.CharField(max_length=255)),
                ('started', models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
                ('status', models.PositiveSmallIntegerField(null=True)),
                ('body', models.JSONField(encoder=rest_framework.utils.encoders.JSONEncoder, null=True)),
            ],
        ),
        migrations.AddConstraint(
            model_name='orderattempt',
            constraint=models.UniqueConstraint(fields=('visitor', 'key'), name='one_order_per_attempt'),
        ),
    ]
