"""Drives VoiceAlarm's web page in a real headless Chromium, the way a person does on a phone.

    python web_page.py SCENARIO PAIRING_LINK OUT_DIR [MICROPHONE_WAV]

Scenarios:
  phone   pair with the link (a wrong code first, refused), record from the fake microphone (MICROPHONE_WAV) for about 4 s,
          make playlist 'morning' with it, add an alarm at 07:30 on weekdays, save a 360 px wide
          screenshot of the alarm list (OUT_DIR/alarms-360px.png), turn its voice off.
  stop    pair, wait for 'Ringing now', press Snooze; when it rings again, press Stop.

Prints one JSON object: what the page said at each step ({"steps": [...], "ok": bool}).
Chromium's fake capture flags make the WAV the microphone (see ../shared/notes).
"""
import json
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait


def browser(microphone):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=360,800",
                 "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                 "--autoplay-policy=no-user-gesture-required", "--ignore-certificate-errors"]:
        options.add_argument(flag)
    # A phone's screen: 360 CSS pixels wide (a desktop window cannot be made that narrow).
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 360, "height": 780, "pixelRatio": 2}})
    if microphone:
        options.add_argument("--use-file-for-fake-audio-capture=" + microphone)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def wait_text(driver, element_id, needle, timeout=60):
    WebDriverWait(driver, timeout).until(lambda d: needle in d.find_element(By.ID, element_id).text)
    return driver.find_element(By.ID, element_id).text


def pair(driver, link, steps, code=None):
    driver.get(link)
    field = driver.find_element(By.ID, "code")
    steps.append({"step": "pairing page", "prefilled": field.get_attribute("value"), "address": driver.current_url})
    if code is not None:
        field.clear()
        field.send_keys(code)
    driver.find_element(By.ID, "name").clear()
    driver.find_element(By.ID, "name").send_keys("Test phone")
    driver.find_element(By.CSS_SELECTOR, "#pair button").click()


def paired(driver, steps):
    WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.ID, "alarms"))
    steps.append({"step": "paired", "address": driver.current_url})


def unnamed_controls(driver):
    """The controls a screen reader would announce without a name, from Chromium's own
    accessibility tree (DevTools' Accessibility domain): each as "role: description"."""
    tree = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})
    roles = {"button", "checkbox", "switch", "textbox", "combobox", "spinbutton", "slider", "link", "radio", "searchbox", "meter"}
    unnamed = []
    for node in tree.get("nodes", []):
        role = (node.get("role") or {}).get("value")
        name = (node.get("name") or {}).get("value", "")
        if role in roles and not node.get("ignored") and not str(name).strip():
            unnamed.append(role + ": " + str((node.get("description") or {}).get("value", "")))
    return unnamed


def phone(driver, link, out, steps):
    wrong(driver, link, out, steps)
    driver.find_element(By.ID, "record-title-input").send_keys("From my phone")
    driver.find_element(By.ID, "record").click()
    levels = []
    started = time.time()
    while time.time() - started < 4:
        time.sleep(0.25)
        levels.append(float(driver.find_element(By.ID, "level").get_attribute("value")))
    driver.find_element(By.ID, "record-stop").click()
    steps.append({"step": "recorded", "message": wait_text(driver, "message", "Imported"), "peakLevel": max(levels)})
    driver.find_element(By.ID, "playlist-name").send_keys("morning")
    driver.find_element(By.CSS_SELECTOR, "#playlist-form button").click()
    wait_text(driver, "message", "Created morning")
    WebDriverWait(driver, 30).until(lambda d: any(b.text == "Add clip" for b in d.find_elements(By.CSS_SELECTOR, "#playlists button")))
    next(b for b in driver.find_elements(By.CSS_SELECTOR, "#playlists button") if b.text == "Add clip").click()
    steps.append({"step": "playlist", "message": wait_text(driver, "message", "Added a clip")})
    driver.find_element(By.CSS_SELECTOR, "#add-alarm summary").click()
    WebDriverWait(driver, 30).until(lambda d: "morning" in [o.text for o in Select(d.find_element(By.ID, "alarm-target")).options])
    Select(driver.find_element(By.ID, "alarm-target")).select_by_value("morning")
    time_field = driver.find_element(By.ID, "alarm-time")
    driver.execute_script("arguments[0].value = '07:30'", time_field)
    for day in ["mon", "tue", "wed", "thu", "fri"]:
        driver.find_element(By.CSS_SELECTOR, "#alarm-form fieldset input[value=%s]" % day).click()
    driver.find_element(By.CSS_SELECTOR, "#alarm-form button[type=submit]").click()
    steps.append({"step": "alarm", "message": wait_text(driver, "message", "Added the alarm at 07:30")})
    WebDriverWait(driver, 30).until(lambda d: "07:30" in d.find_element(By.ID, "alarms").text)
    driver.execute_script("document.getElementById('alarms-title').scrollIntoView()")
    width = driver.execute_script("return window.innerWidth")
    overflow = driver.execute_script("return document.documentElement.scrollWidth > window.innerWidth")
    driver.save_screenshot(out + "/alarms-360px.png")
    steps.append({"step": "screenshot", "width": width, "overflows": overflow})
    steps.append({"step": "accessibility", "unnamed": unnamed_controls(driver)})
    switch = driver.find_element(By.CSS_SELECTOR, "#alarms input[role=switch]")
    steps.append({"step": "switch", "checked": switch.is_selected(), "label": switch.find_element(By.XPATH, "..").text,
                  "alarm": driver.find_element(By.ID, "alarms").text})
    switch.click()
    steps.append({"step": "voice off", "message": wait_text(driver, "message", "Voice off")})
    # Listen to the playlist whole, on the phone: the player loads the clip and plays.
    next(b for b in driver.find_elements(By.CSS_SELECTOR, "#playlists button") if b.text == "Play whole").click()
    WebDriverWait(driver, 30).until(lambda d: d.execute_script("const p = document.getElementById('player'); return p.currentTime > 0.2 || p.error !== null"))
    player = driver.execute_script("const p = document.getElementById('player'); return {src: p.src, error: p.error && p.error.code, duration: p.duration}")
    steps.append({"step": "listened", "src": player["src"], "error": player["error"], "duration": player["duration"]})
    # Add a second alarm and remove it again, confirming the question the page asks.
    driver.execute_script("arguments[0].value = '08:15'", driver.find_element(By.ID, "alarm-time"))
    for day in ["mon", "tue", "wed", "thu", "fri"]:
        driver.find_element(By.CSS_SELECTOR, "#alarm-form fieldset input[value=%s]" % day).click()
    driver.find_element(By.CSS_SELECTOR, "#alarm-form button[type=submit]").click()
    wait_text(driver, "message", "Added the alarm at 08:15")
    WebDriverWait(driver, 30).until(lambda d: "08:15" in d.find_element(By.ID, "alarms").text)
    item = next(li for li in driver.find_elements(By.CSS_SELECTOR, "#alarms > li") if "08:15" in li.text)
    next(b for b in item.find_elements(By.TAG_NAME, "button") if b.text == "Remove").click()
    WebDriverWait(driver, 10).until(lambda d: d.switch_to.alert)
    question = driver.switch_to.alert.text
    driver.switch_to.alert.accept()
    steps.append({"step": "removed", "question": question, "message": wait_text(driver, "message", "Removed the alarm at 08:15")})


def stop(driver, link, out, steps):
    """Snooze the first ring, then Stop the next one (the test rings the alarm twice)."""
    pair(driver, link, steps)
    paired(driver, steps)
    WebDriverWait(driver, 60).until(lambda d: d.find_element(By.ID, "ringing").is_displayed())
    steps.append({"step": "ringing shown", "snooze": driver.find_element(By.ID, "snooze").is_displayed()})
    driver.find_element(By.ID, "snooze").click()
    steps.append({"step": "snoozed", "message": wait_text(driver, "message", "Snoozed")})
    WebDriverWait(driver, 30).until(lambda d: not d.find_element(By.ID, "ringing").is_displayed())
    WebDriverWait(driver, 60).until(lambda d: d.find_element(By.ID, "ringing").is_displayed())
    steps.append({"step": "ringing again"})
    driver.find_element(By.ID, "stop").click()
    steps.append({"step": "stopped", "message": wait_text(driver, "message", "Stopped")})
    WebDriverWait(driver, 30).until(lambda d: not d.find_element(By.ID, "ringing").is_displayed())


def wrong(driver, link, out, steps):
    code = link.split("code=")[1]
    wrong_code = ("B" if code[0] != "B" else "C") + code[1:]
    pair(driver, link, steps, code=wrong_code)
    steps.append({"step": "wrong code", "message": wait_text(driver, "message", "not right")})
    driver.find_element(By.ID, "code").clear()
    driver.find_element(By.ID, "code").send_keys(code)
    driver.find_element(By.CSS_SELECTOR, "#pair button").click()
    paired(driver, steps)


def main():
    scenario, link, out = sys.argv[1], sys.argv[2], sys.argv[3]
    microphone = sys.argv[4] if len(sys.argv) > 4 else None
    steps = []
    driver = browser(microphone)
    ok = False
    try:
        {"phone": phone, "stop": stop}[scenario](driver, link, out, steps)
        ok = True
    except Exception as error:  # the test reads what went wrong from the output
        steps.append({"step": "failed", "error": type(error).__name__ + ": " + str(error).splitlines()[0] if str(error) else type(error).__name__,
                      "message": driver.find_element(By.ID, "message").text if driver.find_elements(By.ID, "message") else None,
                      "problem": driver.find_element(By.ID, "problem").text if driver.find_elements(By.ID, "problem") else None})
        driver.save_screenshot(out + "/failure.png")
    finally:
        driver.quit()
    print(json.dumps({"ok": ok, "steps": steps}))


if __name__ == "__main__":
    main()
