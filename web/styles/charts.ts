// The charts' CSS, only on the screens that draw them (their legends and tooltips use ColorSwatch).
import '@mantine/core/styles/ColorSwatch.css';
import '@mantine/charts/styles.css';
